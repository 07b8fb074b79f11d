#!/usr/bin/env bash
# `hbatest COMMAND --help` is short: its usage, its notes, one or two
# examples and a pointer to man hbatest, not the options every command
# shares nor the exit codes (those are in `hbatest help` and the man page).
# Its usage lines name every option of the command's table (the completion
# reads them), and every example runs as written here: a run with --dry-run,
# /dev/sdb a sparse file, against a database with the runs they name. A
# usage error points at the command's --help.
. "$(dirname "$0")/lib.sh"

MAXLINES=30
cmds=$("$HB" help | sed -n 's/^\(usage:\)\{0,1\} *hbatest \([a-z][a-z]*\).*/\2/p' | sort -u)
[ "$(wc -w <<<"$cmds")" -ge 10 ]; ok $? "the commands, from hbatest help ($(echo $cmds))"

for c in $cmds; do
	out=$("$HB" "$c" --help)
	n=$(wc -l <<<"$out")
	[ "$n" -le $MAXLINES ]; ok $? "$c --help is short ($n lines, at most $MAXLINES)"
	is "$(tail -1 <<<"$out")" "The rest (every option, exit codes, environment): man hbatest" \
		"$c --help ends pointing at the man page"
	! grep -qE '^(Options for every command|Exit codes)' <<<"$out"
	ok $? "$c --help does not repeat the common options' paragraph nor the exit codes"
	syn=$(sed -n '1p; 2,${/^ /!q; p}' <<<"$out" | grep -o -- '--[a-z][a-z-]*' | sort -u)
	own=""
	[ -f "$ROOT/core/cmd/$c.c" ] && own=$(perl -ne \
		'print "--$1\n" while /\{ "([a-z][a-z-]*)", (?:no|required|optional)_argument/g' \
		"$ROOT/core/cmd/$c.c")
	case $c in list | show) own="--check" ;; esac
	missing=$(for o in $own; do grep -qxF -- "$o" <<<"$syn" || printf '%s ' "$o"; done)
	is "$missing" "" "$c --help: its usage lines name every option of its table"
	ex=$(sed -n '/^Examples:$/,/^[^ ]/s/^  hbatest /hbatest /p' <<<"$out")
	[ -n "$ex" ] && [ "$(wc -l <<<"$ex")" -le 3 ]; ok $? "$c --help: one to three examples"
	printf '%s\n' "$ex" >> "$TMP/examples"
done
like "$("$HB" import --help)" "--output-format=json or json\+" "import --help: fio needs its JSON output"
like "$("$HB" report --bogus 2>&1)" "^\(see hbatest report --help\)$" "a usage error points at the command's --help"
like "$("$HB" help)" "Exit codes: 0 done" "hbatest help keeps the exit codes"
like "$("$HB" help)" "man hbatest" "and points at the man page"

# the examples' world: runs raid5-wb and raid5-wt, night.db, lab1.db, lab2.db,
# seq.json, results.csv and the ready plans
EX=$TMP/ex
mkdir "$EX" && cd "$EX" || exit 1
ln -s "$ROOT/plans" plans
truncate -s 1G sdb
cat > q.lua <<'LUA'
hb.plan{ name = "c", defaults = { engine = "null", duration = 1 } }
hb.targets = { "a" }
hb.run{ rw = "randread", oio = 1, group = "4k randread", axis = "oio" }
LUA
export HBATEST_DB=$EX/night.db
for l in raid5-wt raid5-wb; do "$HB" run q.lua --label $l -q || echo "run $l failed"; done > err
"$HB" run q.lua --db lab2.db -q >> err 2>&1
cp night.db lab1.db
cp "$ROOT/tests/fixtures/fio/qd1.json" seq.json
cp "$ROOT/tests/fixtures/iometer/results-2006.07.27.csv" results.csv
is "$(unbound < err)" "" "the examples' runs and files (null steps are host-bound: that warning only)"
charts=""
command -v gnuplot >/dev/null || charts=--no-charts
while IFS= read -r e; do
	line=${e//\/dev\/sdb/$EX\/sdb}
	case $line in
	"hbatest run "*) [[ $line == *--dry-run* ]] || line="$line --dry-run" ;;
	"hbatest report "*) [[ $line == *--no-charts* ]] || line="$line $charts" ;;
	esac
	out=$(eval "\"\$HB\" ${line#hbatest }" 2>&1 </dev/null); rc=$?
	is "$rc" 0 "example: $e"
	[ "$rc" = 0 ] || printf '%s\n' "$out" | head -5 | sed 's/^/#   /'
done < "$TMP/examples"
done_testing
