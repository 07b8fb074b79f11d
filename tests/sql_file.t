#!/usr/bin/env bash
# hbatest sql -f FILE (and --file FILE, --file=FILE): the statement is the
# file's, --param values bind as on the command line, and everything sql
# refuses from the command line it refuses from a file; a missing FILE, a
# missing or empty file, a statement given twice are errors naming them.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
cat > p.lua <<'LUA'
hb.plan{ name = "f", defaults = { engine = "null", duration = 1 } }
hb.targets = { "a" }
hb.run{ rw = "randread", oio = 1, name = "one" }
hb.run{ rw = "randwrite", oio = 2, name = "two" }
LUA
"$HB" run p.lua --db f.db --label night -q; ok $? "a run of two steps"
sum=$(sha256sum < f.db)

cat > q.sql <<'SQL'
-- the steps of a run at an OIO or more
SELECT name, oio FROM steps
WHERE run_id = (SELECT id FROM runs WHERE label = :label) AND oio >= :oio
ORDER BY seq;
SQL
out=$("$HB" sql -f q.sql --param label=night --param oio=2 --db f.db --format csv 2>&1)
is "$?:$out" "0:name,oio
\"two\",2" "-f FILE: the file's statement, --param bound"
out=$("$HB" sql --file q.sql --param label=night --param oio=1 --db f.db --format tsv 2>&1)
is "$?:$(echo $out)" "0:name oio one 1 two 2" "--file FILE"
out=$("$HB" sql --db f.db --format=json --file=q.sql --param label=night --param oio=2 2>&1)
like "$?:$(echo $out)" '^0:\[ \{"name": "two", "oio": 2\} \]$' "--file=FILE, options in any order"

printf 'DELETE FROM runs;\n' > w.sql
out=$("$HB" sql -f w.sql --db f.db 2>&1)
like "$?:$out" "^2:.*refused: DELETE" "a statement that would write is refused from a file too, exit 2"
is "$(sha256sum < f.db)" "$sum" "and the database is unchanged"
printf -- '-- nothing\n;\n' > empty.sql
out=$("$HB" sql -f empty.sql --db f.db 2>&1)
like "$?:$out" "^2:.*sql -f 'empty.sql': empty SQL statement" "an empty file: exit 2, named"
out=$("$HB" sql -f nope.sql --db f.db 2>&1)
like "$?:$out" "^1:.*sql -f 'nope.sql': cannot read 'nope.sql'" "a missing file: exit 1, named"
out=$("$HB" sql -f --db f.db 2>&1)
like "$?:$out" "^2:.*option '-f' needs a FILE" "-f followed by an option: no FILE, exit 2"
out=$("$HB" sql --db f.db -f 2>&1)
like "$?:$out" "^2:.*option '-f' needs a FILE" "-f last: exit 2"
out=$("$HB" sql -f q.sql "SELECT 1" --db f.db 2>&1)
like "$?:$out" "^2:.*-f q.sql and a statement: give the statement one way" "a file and a statement: exit 2"
out=$("$HB" sql -f q.sql -f q.sql --db f.db 2>&1)
like "$?:$out" "^2:.*given twice" "-f twice: exit 2"
mkfifo fifo.sql
out=$(timeout 20 "$HB" sql -f fifo.sql --db f.db 2>&1)
like "$?:$out" "^1:.*sql -f 'fifo.sql': .*is a FIFO, not a query file" "a FIFO is refused, not waited on"
done_testing
