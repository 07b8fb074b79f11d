#!/usr/bin/env bash
# Two hbatest runs writing one file at once measure each other's I/O: the
# guard claims each file a run writes (flock, held until the run ends:
# docs/safety.md), and a second run writing it is refused in its dry pass,
# before any run row, naming the file. A file the run lays out is claimed as
# it is created. The first run's step lasts until the test stops it.
. "$(dirname "$0")/lib.sh"

# long NAME FILE: a write step on FILE that lasts until SIGINT
long() {
	printf 'hb.run{ name = "%s", engine = "psync", rw = "randwrite", bs = "4k", size = "%s", duration = 600, ramp = 0, targets = { "%s" } }\n' \
		"$1" "${3:-1m}" "$2" > "$TMP/$1.lua"
}
short() {
	printf 'hb.run{ engine = "psync", rw = "%s", bs = "4k", size = "1m", duration = 1, ramp = 0, targets = { "%s" } }\n' \
		"$1" "$2" > "$TMP/short.lua"
}
# start NAME DB: run NAME.lua into DB in the background (pid in $pid), until its first second is stored
start() {
	"$HB" run "$TMP/$1.lua" --db "$2" -q 2>"$TMP/$1.err" &
	pid=$!
	cleanup_hooks+=("kill -INT $pid 2>/dev/null")
	wait_count "$2" "SELECT count(*) FROM samples" 1
	ok $? "run $1 is measuring"
}
stop() {
	kill -INT "$pid"; wait "$pid"
	is "$?" 130 "run $1 stopped with SIGINT (exit 130)"
}

truncate -s 1m "$TMP/shared.dat"
long first "$TMP/shared.dat"
start first "$TMP/a.db"
short randwrite "$TMP/shared.dat"
out=$("$HB" run "$TMP/short.lua" --db "$TMP/b.db" 2>&1); rc=$?
is "$rc" 1 "a second run writing the same file fails (exit 1)"
like "$out" "short.lua:1: .*refusing to write to '$TMP/shared.dat': another hbatest run is writing it" \
	"naming the plan's line and the file"
[ ! -e "$TMP/b.db" ] || is "$(q "$TMP/b.db" "SELECT count(*) FROM runs")" 0 "no run row was written"
ln -s "$TMP/shared.dat" "$TMP/alias.dat"
short randwrite "$TMP/alias.dat"
out=$("$HB" run "$TMP/short.lua" --db "$TMP/b.db" --dry-run 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/alias.dat': another hbatest run is writing it" \
	"the same file by another name, in a --dry-run: refused too"
# a run that claims a file of its own first: the shared file (on the same
# file system) is another file, refused still (a claim is the file's, not
# its file system's)
truncate -s 1m "$TMP/own.dat"
printf 'hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1, ramp = 0, targets = { "%s" } }\nhb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1, ramp = 0, targets = { "%s" } }\n' \
	"$TMP/own.dat" "$TMP/shared.dat" > "$TMP/two.lua"
out=$("$HB" run "$TMP/two.lua" --db "$TMP/b.db" 2>&1)
like "$? $out" "^1 .*two.lua:2: .*refusing to write to '$TMP/shared.dat': another hbatest run is writing it" \
	"a run writing a file of its own, then the shared one: refused at the shared one"
short randread "$TMP/shared.dat"
"$HB" run "$TMP/short.lua" --db "$TMP/b.db" -q 2>/dev/null
ok $? "a read step on it runs (a read changes nothing; its figures are the reader's to judge)"
stop first
short randwrite "$TMP/shared.dat"
"$HB" run "$TMP/short.lua" --db "$TMP/b.db" -q 2>/dev/null
ok $? "once the first run has ended the file is free"

# a file the first run lays out: claimed as it is created (neither pass found it before)
long fresh "$TMP/fresh.dat" 4m
"$HB" run "$TMP/fresh.lua" --dry-run >/dev/null 2>&1; rc=$?
[ -e "$TMP/fresh.dat" ]; is "$rc $?" "0 1" \
	"a --dry-run of the step that lays it out makes no file (the dry pass claims none it would create)"
start fresh "$TMP/c.db"
short randwrite "$TMP/fresh.dat"
out=$("$HB" run "$TMP/short.lua" --db "$TMP/d.db" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/fresh.dat': another hbatest run is writing it" \
	"a file the first run laid out is refused to a second"
stop fresh

done_testing
