#!/usr/bin/env bash
# A run's notes (--note, hb.note) and its plan's name: stored in order, a line
# a note, shown by show, the first in list, listed (not stored) by --dry-run,
# kept by a resume;
# a note that is not a string is refused with the plan line.
. "$(dirname "$0")/lib.sh"

DB="$TMP/n.db"
PLAN="$TMP/notes.lua"
cat > "$PLAN" <<'LUA'
hb.plan{ name = "Night of notes", defaults = { engine = "null", duration = 1 } }
hb.targets = { "v" }
hb.note("plan note one")
hb.run{ rw = "randread" }
hb.note("two lines:\r\nsecond line\n\n")
if not hb.dry and os.getenv("HB_NOTES_FAIL") then error("stopped on purpose") end
hb.run{ rw = "randwrite" }
LUA
notes() { q "$DB" "SELECT replace(notes, char(10), '|') FROM runs WHERE id = $1"; }

"$HB" run "$PLAN" --db "$DB" -q --note "from the command line" --note="a second; é" 2>"$TMP/err"
ok $? "a run with --note twice and hb.note"
is "$(notes 1)" "from the command line|a second; é|plan note one|two lines:|second line" \
	"notes in order: --note first, then hb.note, a line each (CR and blank lines dropped)"
is "$(q "$DB" "SELECT plan_name FROM runs WHERE id = 1")" "Night of notes" "hb.plan{ name } is stored"
out=$("$HB" show 1 --db "$DB")
like "$out" "plan name +Night of notes" "show prints the plan name"
like "$(printf '%s\n' "$out" | grep -E '^  note ' | tr -s ' ' | tr '\n' '|')" \
	"^ note from the command line\| note a second; é\| note plan note one\| note two lines:\| note second line\|$" \
	"show prints each note, in order"

out=$("$HB" list --db "$DB")
like "$(grep '^ *1 ' <<<"$out")" "notes\.lua  note: from the command line \(\+4\)$" \
	"list: the first note line after the plan, and how many lines follow"

# no note, no name: NULL
cat > "$TMP/plain.lua" <<'LUA'
hb.run{ engine = "null", duration = 1, targets = { "v" } }
LUA
"$HB" run "$TMP/plain.lua" --db "$DB" -q 2>/dev/null; ok $? "a plan without notes or a name"
is "$(q "$DB" "SELECT quote(notes) || quote(plan_name) FROM runs WHERE id = 2")" "NULLNULL" \
	"stores neither"

# --dry-run lists the notes and stores nothing
sum=$(sha256sum "$DB")
out=$("$HB" run "$PLAN" --db "$DB" --dry-run --note cli); ok $? "--dry-run with notes"
like "$(printf '%s\n' "$out" | grep '^note' | tr '\n' '|')" \
	"^note  cli\|note  plan note one\|note  two lines:\|note  second line\|$" "--dry-run lists the notes"
is "$(sha256sum "$DB")" "$sum" "and the database is unchanged"

# refusals
for bad in 'hb.note(42)' 'hb.note({})' 'hb.note()'; do
	printf 'hb.targets = { "v" }\n\n%s\nhb.run{ engine = "null", duration = 1 }\n' "$bad" > "$TMP/bad.lua"
	out=$("$HB" run "$TMP/bad.lua" --db "$DB" 2>&1); is $? 1 "$bad is refused"
	like "$out" "bad.lua:3: hb.note: the note is a (number|table|no value): expected a string" \
		"naming the plan line and what it got"
done
printf 'hb.note("  ")\nhb.run{ engine = "null", duration = 1, targets = { "v" } }\n' > "$TMP/blank.lua"
out=$("$HB" run "$TMP/blank.lua" --db "$DB" 2>&1); is $? 1 "a blank hb.note is refused"
like "$out" "blank.lua:1: hb.note: an empty note" "naming the line"
out=$("$HB" run "$PLAN" --db "$DB" --note "" 2>&1); is $? 2 "an empty --note is a usage error"
out=$("$HB" run "$PLAN" --db "$DB" --note "$(printf 'bad \377')" 2>&1); is $? 2 "a --note that is not UTF-8 too"
is "$(q "$DB" "SELECT count(*) FROM runs")" 2 "no refusal stored a run"

# resume: the notes are kept, the replayed hb.note is not added twice, a new --note is
HB_NOTES_FAIL=1 "$HB" run "$PLAN" --db "$DB" -q --note "before" 2>/dev/null; is $? 1 "a run that fails midway"
id=$(q "$DB" "SELECT max(id) FROM runs")
is "$(notes "$id")" "before|plan note one|two lines:|second line" "its notes so far"
"$HB" run --resume "$id" --db "$DB" -q --note "after the resume" 2>/dev/null; ok $? "--resume with a new --note"
is "$(notes "$id")" "before|plan note one|two lines:|second line|after the resume" \
	"the resume keeps the notes, adds the new one, and does not repeat the plan's"
is "$(q "$DB" "SELECT status || ' ' || plan_name FROM runs WHERE id = $id")" "done Night of notes" \
	"the resumed run is done and keeps its plan name"

long=$(printf 'x%.0s' $(seq 60))
"$HB" run "$TMP/plain.lua" --db "$DB" -q --note "$long" --note "a	tab" 2>/dev/null
out=$("$HB" list --db "$DB")
like "$(tail -1 <<<"$out")" "  note: x{37}\.\.\. \(\+1\)$" "list: a long note cut to 40 cells, '...' saying so"
like "$(grep '^ *2 ' <<<"$out")" "plain\.lua$" "list: a run without notes ends at its plan"
done_testing
