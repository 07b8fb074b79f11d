#!/usr/bin/env bash
# hbatest sql by statement class, as tables: each read-only form (a recursive
# CTE, window functions, json_each and json_extract, the schema's views,
# PRAGMAs that read, EXPLAIN) exits 0 with the rows computed here; each
# writing form (INSERT, UPDATE, DELETE, REPLACE, ATTACH, DETACH, PRAGMAs that
# set, DDL, load_extension, VACUUM, transactions) exits 2 with nothing on
# stdout, says what it would do, and leaves the database byte-identical.
. "$(dirname "$0")/lib.sh"
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")

DB="$TMP/c.db"
"$HB" run "$ROOT/tests/fixtures/export/plan.lua" --db "$DB" --label classes -q 2>>"$TMP/stderr"
ok $? "a sim run to read"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
hash=$(sha256sum "$DB" | cut -d' ' -f1)
sql() { "$HB" sql --db "$DB" --format tsv "$1" >"$TMP/out" 2>"$TMP/err"; }

# --- allowed: STATEMENT|ROWS (TSV, header first; \n between lines) ----------------------
n=0
while IFS='|' read -r what stmt want; do
	n=$((n + 1))
	sql "$stmt"; rc=$?
	want=${want//@V@/$V}	# @V@: the schema version, db/schema.sql's last line
	is "$rc $(cat "$TMP/out")$(cat "$TMP/err")" "0 $(printf '%b' "$want")" "allowed, $what: exit 0 and its rows"
done <<'EOF_ALLOWED'
a recursive CTE|WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4) SELECT group_concat(x, ' ') AS v FROM c|v\n1 2 3 4
a recursive CTE over a table|WITH RECURSIVE s(seq) AS (SELECT min(seq) FROM steps UNION ALL SELECT seq + 1 FROM s WHERE seq < 3) SELECT s.seq, st.oio FROM s JOIN steps st USING (seq) ORDER BY 1|seq\toio\n1\t2\n2\t8\n3\t4
window functions (rank, sum over a frame, lag)|SELECT seq, rank() OVER (ORDER BY oio DESC, seq) AS r, sum(oio) OVER (ORDER BY seq ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s, lag(write_pct) OVER (ORDER BY seq) AS l FROM steps WHERE seq <= 4 ORDER BY seq|seq\tr\ts\tl\n1\t4\t2\t\n2\t1\t10\t0\n3\t2\t12\t0\n4\t3\t8\t0
json_each|SELECT key, value, type FROM json_each('{"a":1,"b":"x","c":[2]}')|key\tvalue\ttype\na\t1\tinteger\nb\tx\ttext\nc\t[2]\tarray
json_extract over a column|SELECT seq, json_extract(params_json, '$.oio') AS o FROM steps WHERE seq IN (1, 2) ORDER BY seq|seq\to\n1\t2\n2\t8
json_tree|SELECT count(*) AS n FROM json_tree('{"a":{"b":[1,2]}}')|n\n5
a view of the schema (step_summary)|SELECT count(*) AS n FROM step_summary|n\n9
a view of the schema (run_state)|SELECT label, state FROM run_state|label\tstate\nclasses\tdone
PRAGMA table_info|PRAGMA table_info(events)|cid\tname\ttype\tnotnull\tdflt_value\tpk\n0\tid\tINTEGER\t0\t\t1\n1\trun_id\tINTEGER\t1\t\t0\n2\tat\tTEXT\t1\t\t0\n3\tlevel\tTEXT\t1\t\t0\n4\tmessage\tTEXT\t1\t\t0
pragma_table_info as a function|SELECT name FROM pragma_table_info('steps') WHERE cid BETWEEN 5 AND 6|name\ngroup_name\ntags_json
PRAGMA user_version|PRAGMA user_version|user_version\n@V@
PRAGMA foreign_keys (read)|PRAGMA foreign_keys|foreign_keys\n0
PRAGMA index_list|SELECT count(*) > 0 AS some FROM pragma_index_list('samples')|some\n1
EXPLAIN QUERY PLAN|EXPLAIN QUERY PLAN SELECT * FROM runs|id\tparent\tnotused\tdetail\n2\t0\t0\tSCAN runs
a subquery, GROUP BY and HAVING|SELECT rw, count(*) AS n FROM steps GROUP BY rw HAVING n > 1 ORDER BY rw|rw\tn\nrandread\t2\nrandrw\t2\nrandwrite\t5
UNION and EXCEPT|SELECT 1 AS x UNION SELECT 2 EXCEPT SELECT 1|x\n2
a comment after the statement|SELECT 7 AS x; -- seven|x\n7
EOF_ALLOWED
sql "EXPLAIN SELECT 1"; is "$? $(head -1 "$TMP/out")" "0 $(printf 'addr\topcode\tp1\tp2\tp3\tp4\tp5\tcomment')" \
	"allowed, EXPLAIN: exit 0 and the program's rows"

# --- refused: STATEMENT|what the error says --------------------------------------------
while IFS='|' read -r stmt want; do
	sql "$stmt"; rc=$?
	is "$rc $(wc -c <"$TMP/out") $(grep -cF "refused: $want" "$TMP/err")" "2 0 1" \
		"refused, $stmt: exit 2, no output, '$want'"
done <<'EOF_REFUSED'
INSERT INTO probes (run_id, phase, probe, key, value) VALUES (1, 'end', 'h', 'k', 'v')|INSERT into 'probes'
REPLACE INTO probes (run_id, phase, probe, key, value) VALUES (1, 'end', 'h', 'k', 'v')|INSERT into 'probes'
UPDATE runs SET label = 'x'|UPDATE of 'runs'
DELETE FROM samples|DELETE from 'samples'
WITH x AS (SELECT 1) DELETE FROM runs|DELETE from 'runs'
ATTACH 'other.db' AS o|ATTACH of 'other.db'
DETACH main|DETACH of 'main'
PRAGMA user_version = 3|PRAGMA user_version = 3
PRAGMA foreign_keys = 0|PRAGMA foreign_keys = 0
PRAGMA journal_mode = delete|PRAGMA journal_mode = delete
SELECT load_extension('x')|the function load_extension
SELECT * FROM pragma_optimize|PRAGMA optimize
CREATE TEMP VIEW v AS SELECT 1|CREATE
DROP VIEW run_state|DROP
ALTER TABLE runs ADD COLUMN x|ALTER
CREATE INDEX i ON runs (label)|CREATE
VACUUM|'VACUUM' (it writes)
BEGIN|BEGIN
ANALYZE|ANALYZE
EOF_REFUSED
[ "$(sha256sum "$DB" | cut -d' ' -f1)" = "$hash" ] && [ ! -e "$DB-wal" ] && [ ! -e "$DB-shm" ] && [ ! -e other.db ]
ok $? "the database byte-identical after them all, no -wal, -shm or attached file"

done_testing
