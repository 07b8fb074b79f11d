#!/usr/bin/env bash
# hbatest import iometer, every access-specification field against the column
# it is stored in, as a table: size to bs ("512", "4k", "1m", "4k:60,64k:40"
# for two lines), % reads to write_pct (100 - reads, weighted by % of size),
# % random to rw ("rand" from 50 %, either side of it), reads and writes to
# read, write, rw; delay, burst, alignment and reply kept as Iometer recorded
# them in params_json; the queue depth to oio; each result's I/O counts
# against its read share. tests/fixtures/iometer/results-1.1.0-specs.csv:
# 80 columns, CRLF, a comma after each specification line (make-fixtures.py).
. "$(dirname "$0")/lib.sh"

DB="$TMP/s.db"
F="$ROOT/tests/fixtures/iometer/results-1.1.0-specs.csv"
"$HB" import iometer "$F" --db "$DB" --label specs >"$TMP/out" 2>"$TMP/err"
ok $? "import the eight specifications"
is "$(cat "$TMP/err")" "" "without a word on stderr"

# seq|rw bs write_pct oio|size of_size reads random delay burst align reply (each line)|read_ops write_ops
row() {
	q "$DB" "SELECT rw || ' ' || bs || ' ' || write_pct || ' ' || oio FROM steps WHERE seq = $1"
}
spec() {
	q "$DB" "SELECT group_concat(s, ' / ') FROM (SELECT json_extract(j.value, '\$.size') || ' ' ||
		json_extract(j.value, '\$.of_size') || ' ' || json_extract(j.value, '\$.reads') || ' ' ||
		json_extract(j.value, '\$.random') || ' ' || json_extract(j.value, '\$.delay') || ' ' ||
		json_extract(j.value, '\$.burst') || ' ' || json_extract(j.value, '\$.align') || ' ' ||
		json_extract(j.value, '\$.reply') AS s
		FROM steps, json_each(steps.params_json, '\$.spec') AS j WHERE seq = $1 ORDER BY j.key)"
}
while IFS='|' read -r seq name cols fields ops; do
	is "$(q "$DB" "SELECT name FROM steps WHERE seq = $seq")" "$name" "step $seq is '$name'"
	is "$(row "$seq")" "$cols" "$name: rw, bs, write %, oio"
	is "$(spec "$seq")" "$fields" "$name: size, % of size, % reads, % random, delay, burst, align, reply as recorded"
	is "$(q "$DB" "SELECT read_ops || ' ' || write_ops FROM steps WHERE seq = $seq")" "$ops" \
		"$name: its reads and writes"
done <<'EOF_TABLE'
1|512B; 100% Read; 0% random|read 512 0 1|512 100 100 0 0 1 0 0|60000 0
2|4K; 0% Read; 0% random|write 4k 100 2|4096 100 0 0 0 1 0 0|0 60000
3|8K; 70% Read; 100% random|randrw 8k 30 3|8192 100 70 100 0 1 0 0|42000 18000
4|64K; 100% Read; 0% random|read 64k 0 4|65536 100 100 0 0 1 0 0|60000 0
5|16K; 30% Read; 50% random|randrw 16k 70 5|16384 100 30 50 0 1 0 0|18000 42000
6|4K; 50% Read; 49% random|rw 4k 50 6|4096 100 50 49 0 1 0 0|30000 30000
7|1M; 100% Read; 100% random; delay 5 burst 4 align 4K reply 512|randread 1m 0 7|1048576 100 100 100 5 4 4096 512|60000 0
8|4K 60% random reads + 64K 40% sequential writes|randrw 4k:60,64k:40 40 8|4096 60 100 100 0 1 0 0 / 65536 40 0 0 0 1 0 0|36000 24000
EOF_TABLE
is "$(q "$DB" "SELECT count(*) FROM steps")" 8 "one step per result, no more"

done_testing
