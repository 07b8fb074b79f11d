#!/usr/bin/env bash
# hbatest sql refuses a database of a newer schema than this hbatest's, as
# every other command does (docs/database.md: "A database newer than the
# binary is refused, naming both versions"), and leaves it as it was.
. "$(dirname "$0")/lib.sh"

DB="$TMP/new.db"
printf 'hb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/p.lua"
"$HB" run "$TMP/p.lua" --db "$DB" -q 2>/dev/null; ok $? "a run to query"
"$HB" sql --db "$DB" "SELECT count(*) FROM runs" >/dev/null; ok $? "sql answers on this hbatest's schema"
v=$(q "$DB" "PRAGMA user_version")
newer=$((v + 87))
q "$DB" "PRAGMA user_version = $newer"
before=$(sha256sum < "$DB")
want="database '$DB' has schema version $newer; this hbatest knows up to $v: upgrade hbatest"
out=$("$HB" list --db "$DB" 2>&1); rc=$?
is "$rc: $out" "1: hbatest: error: $want" "list refuses it (the message sql must give)"
for query in "SELECT count(*) FROM runs" runs; do
	out=$("$HB" sql --db "$DB" "$query" 2>&1); rc=$?
	is "$rc: $out" "1: hbatest: error: $want" "sql '$query' refuses it the same way, printing no row"
done
is "$(sha256sum < "$DB")" "$before" "and leaves the database as it was"
done_testing
