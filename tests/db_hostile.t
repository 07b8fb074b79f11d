#!/usr/bin/env bash
# A path given as a database or a saved query that is not a regular file: a
# FIFO (whose open would block for ever), a folder, a device, a link to a
# FIFO. Every command refuses it at once, naming the path and what it is,
# exit 1, and makes nothing beside it; merge refuses such an input before
# OUT is created, and such an OUT; a FIFO among the saved queries is listed
# as not read, and refused by its name.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
mkfifo fifo.db && mkdir folder.db q && mkfifo q/evil.sql && ln -s fifo.db link.db
ok $? "a FIFO, a folder, a link to the FIFO, a FIFO among the saved queries"
printf 'hb.run{ name = "n", engine = "null", targets = "v", duration = 1 }\n' > tiny.lua
"$HB" run tiny.lua --db r.db -q 2>>stderr; ok $? "a database with a run"

# hb ARGS...: in a time box, so that an open that blocks fails the test
# instead of holding it (30 s: a guard, not a measurement; then SIGKILL, as
# sql catches SIGTERM and SQLite retries an open a signal interrupts)
hb() { timeout -k 5 30 "$HB" "$@" >out 2>err; }

for db in fifo.db:FIFO folder.db:folder link.db:FIFO /dev/null:"character device"; do
	path=${db%%:*} kind=${db#*:} bad=""
	for cmd in "list" "show 1" "export 1 --out e.csv" "report 1 --out rep --no-charts" \
		"sql runs" "sql SELECT\ 1" "run tiny.lua -q"; do
		eval "hb $cmd --db $path"; rc=$?
		grep -qF "'$path' is a $kind, not a database file" err && [ $rc = 1 ] ||
			bad="$bad [$cmd: exit $rc: $(cat err)]"
	done
	is "$bad" "" "--db $path: list, show, export, report, sql (saved, a statement) and run refuse it, exit 1: '$path' is a $kind, not a database file"
done
[ -p fifo.db ] && [ -d folder.db ] && [ -z "$(ls -d fifo.db-* folder.db-* link.db-* 2>/dev/null)" ]
ok $? "the FIFO and the folder are as they were, with no -wal, -shm or -journal beside them"

hb merge out.db fifo.db; is $? 1 "merge OUT fifo.db: exit 1, at once"
like "$(cat err)" "'fifo.db' is a FIFO, not a database file: nothing merged" "naming the input and what it is"
[ ! -e out.db ] && [ -z "$(ls out.db-* 2>/dev/null)" ]; ok $? "and OUT is not created"
hb merge out.db r.db folder.db; is $? 1 "merge OUT a.db folder.db: every input is checked before OUT is created"
like "$(cat err)" "'folder.db' is a folder, not a database file" "naming the folder"
[ ! -e out.db ]; ok $? "OUT not created"
hb merge fifo.db r.db; is $? 1 "merge with a FIFO as OUT: exit 1"
like "$(cat err)" "'fifo.db' is a FIFO, not a database file" "naming it"
[ -p fifo.db ]; ok $? "the FIFO is left a FIFO"

printf -- '-- mine: one row\nSELECT 1 AS one\n' > q/mine.sql
export HBATEST_QUERIES="$TMP/q"
hb sql --list --db r.db; is $? 0 "sql --list with a FIFO among the saved queries: exit 0, at once"
like "$(cat out)" "mine +mine: one row" "the regular one listed with its description"
like "$(cat out)" "evil +\\(not read: '$TMP/q/evil.sql' is a FIFO, not a query file\\)" \
	"the FIFO listed as not read, naming what it is"
hb sql evil --db r.db; is $? 1 "sql NAME of a FIFO: exit 1, at once"
like "$(cat err)" "saved query 'evil': '$TMP/q/evil.sql' is a FIFO, not a query file" "naming the file"
hb sql mine --db r.db; is "$?$(tail -1 out)" 01 "a regular saved query beside it runs"

done_testing
