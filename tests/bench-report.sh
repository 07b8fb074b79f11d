#!/usr/bin/env bash
# make bench-report: how long `hbatest report` takes for two simulated full
# plans/raid5.lua runs (96 steps and a 9,000 s preconditioning each), and how
# many charts it draws. Issue 11 asks for under 10 s on a 2-core machine.
set -e
cd "$(dirname "$0")/.."
dir=$(mktemp -d "${TMPDIR:-/tmp}/hbatest-bench-report.XXXXXX")
trap 'rm -rf "$dir"' EXIT
for label in card-a card-b; do
	echo "running plans/raid5.lua on the sim engine as $label (about 30 s)..."
	./hbatest run plans/raid5.lua --db "$dir/b.db" --label "$label" --target vol \
		--set engine=sim --set passes=1 -q
done
start=$(date +%s%N)
./hbatest report card-a card-b --db "$dir/b.db" --out "$dir/report" >/dev/null
end=$(date +%s%N)
printf 'report of 2 runs (%s steps, %s samples): %d charts, %.2f s, index.html %s\n' \
	"$(sqlite3 "$dir/b.db" 'SELECT count(*) FROM steps')" \
	"$(sqlite3 "$dir/b.db" 'SELECT count(*) FROM samples')" \
	"$(ls "$dir/report/charts/"*.gp | wc -l)" "$(awk -v a="$start" -v b="$end" 'BEGIN { print (b - a) / 1e9 }')" \
	"$(du -h "$dir/report/index.html" | cut -f1)"
