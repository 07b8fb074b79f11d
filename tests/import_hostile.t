#!/usr/bin/env bash
# hbatest import fio and hbatest, hostile files (issue 32): a number past a
# double's range or of the wrong type, text that is not UTF-8 or holds a NUL,
# fio interval logs that do not fit their JSON (seconds, directions, totals,
# order). Each is refused with FILE:LINE:COLUMN naming the field or the log
# line, exit 1, the database byte-identical. Seeds: tests/fixtures/fio (fio
# 3.33's own output; no fio needed here) and tests/fixtures/export/run.json.
. "$(dirname "$0")/lib.sh"

FIO="$ROOT/tests/fixtures/fio"
SEED="$TMP/seed.db" DB="$TMP/h.db"
dbsum() { sha256sum < "$DB"; }

X="$ROOT/tests/fixtures/export/run.json"
"$HB" import hbatest "$X" --db "$SEED" >/dev/null 2>&1
ok $? "the database the refusals must not touch (an export imported)"

# bad KIND PATTERN WHAT FILE...: exit 1, the message, the database (a copy
# of the seed each time, so that each case stands alone) byte-identical
bad() {
	local kind=$1 pat=$2 what=$3 before out rc; shift 3
	cp "$SEED" "$DB"
	before=$(dbsum)
	out=$("$HB" import "$kind" "$@" --db "$DB" 2>&1); rc=$?
	is "$rc" 1 "$what: exit 1"
	like "$out" "$pat" "$what: $(printf '%s' "$out" | head -1 | sed "s|$TMP/||g")"
	is "$(dbsum)" "$before" "$what: database byte-identical"
}
# good KIND WHAT FILE...: imported into a database of its own, $GOOD
ngood=0
good() {
	local kind=$1 what=$2 out; shift 2
	GOOD="$TMP/good$((ngood += 1)).db"
	out=$("$HB" import "$kind" "$@" --db "$GOOD" 2>&1)
	ok $? "$what ($(printf '%s' "$out" | grep -av warning | sed "s|$TMP/||g" | LC_ALL=C tr -c '[:print:]\n' '?' | paste -sd' '))"
}
# fiox NAME SED [LOG-KIND LOG-SED]: a folder NAME with qd1.json (SED applied)
# and its iops, bw and clat logs (LOG-SED applied to the LOG-KIND one)
fiox() {
	mkdir -p "$TMP/$1"
	sed "$2" "$FIO/qd1.json" > "$TMP/$1/qd1.json"
	cp "$FIO"/qd1_*.log "$TMP/$1/"
	[ -n "$3" ] && sed "$4" "$FIO/qd1_$3.1.log" > "$TMP/$1/qd1_$3.1.log"
	return 0
}
col() { awk -v l="$2" -v s="$3" 'NR == l { print index($0, s) }' "$1"; }

# ------------------------------------------------ numbers (item 4)
fiox inf '33s/6354.911272/1e400/'
bad fio "inf/qd1.json:33:$(col "$TMP/inf/qd1.json" 33 1e400): iops: 1e400 is not a finite number \(past a double's range\)" \
	"fio: an IOPS of 1e400 (stored as Inf, and report died on it)" "$TMP/inf/qd1.json"
fiox ninf '48s/156032.362818/-1e999/'
bad fio "ninf/qd1.json:48:[0-9]+: mean: -1e999 is not a finite number" "fio: a latency mean of -1e999" "$TMP/ninf/qd1.json"
fiox negmax '47s/25817266/-5/'
bad fio "negmax/qd1.json:47:[0-9]+: max: a negative latency" "fio: a negative latency" "$TMP/negmax/qd1.json"
fiox pctstr '52s/41728/"fast"/'
bad fio "pctstr/qd1.json:52:[0-9]+: jobs\[0\] 'qd1' read: clat_ns percentile.\"1.000000\" is not a latency in ns" \
	"fio: a percentile that is text" "$TMP/pctstr/qd1.json"
fiox ts '4s/1796416111660/1e300/'
bad fio "ts/qd1.json:4:[0-9]+: timestamp_ms: not a time since 1970" "fio: a timestamp past the year 9999" "$TMP/ts/qd1.json"
fiox elapsed '16s/5,/"five",/'
bad fio "elapsed/qd1.json:16:[0-9]+: elapsed: expected a number" "fio: an elapsed time that is text (it was ignored)" "$TMP/elapsed/qd1.json"
fiox rtopt '22s/"4"/"1e400"/'
bad fio "rtopt/qd1.json:22:[0-9]+: runtime: '1e400' in jobs\[0\] 'qd1' is not a time of at most 2147483647 s" \
	"fio: a runtime option of 1e400 s" "$TMP/rtopt/qd1.json"
fiox numjobs '21s/"1",/"1", "numjobs" : "lots",/'
bad fio "numjobs/qd1.json:21:[0-9]+: numjobs: 'lots' in jobs\[0\] 'qd1' is not a whole number from 1 to 4096" \
	"fio: numjobs that is not a number" "$TMP/numjobs/qd1.json"

sed 's/0f3c2a8e-5d1b-4c77-9a0e-2b6d4e8f1a90/11111111-2222-4333-8444-555555555555/' "$X" > "$TMP/x.json"
xedit() { sed "$2" "$TMP/x.json" > "$TMP/$1.json"; }
xedit xinf '26s/"iops": 10000.0/"iops": 1e999/'
bad hbatest "xinf.json:26:[0-9]+: steps: 'iops' is 1e999, not a finite number" \
	"hbatest: an IOPS of 1e999 (the export's infinity; report died on it)" "$TMP/xinf.json"
xedit xbig '0,/"duration_s": 2,/s//"duration_s": 99999999999999999999999,/'
bad hbatest "xbig.json:[0-9]+:[0-9]+: steps: 'duration_s' is 99999999999999999999999, past a 64-bit integer" \
	"hbatest: an integer column past 64 bits (stored as a real)" "$TMP/xbig.json"
xedit xaxis '28s/"axis_value": "1"/"axis_value": "abc"/'
bad hbatest "xaxis.json:28:[0-9]+: steps: axis_value 'abc' of axis 'oio' is not a whole number from 1 to 2147483647" \
	"hbatest: an OIO sweep's axis_value that is not a number (report died comparing it)" "$TMP/xaxis.json"
xedit xaxnull '28s/"axis_value": "1"/"axis_value": null/'
bad hbatest "xaxnull.json:28:[0-9]+: steps: axis 'oio' without its axis_value" \
	"hbatest: an axis without its value" "$TMP/xaxnull.json"
xedit xschema 's/"schema_version": 4/"schema_version": 99999999999999999999/'
bad hbatest "xschema.json:4:[0-9]+: schema_version: missing, not a version" \
	"hbatest: a schema_version past 64 bits (read as an old one)" "$TMP/xschema.json"

# ------------------------------------------------ text (items 3 and 10)
fiox nul '12s/"qd1"/"qd1\\u0000evil"/'
bad fio "nul/qd1.json:12:$(col "$TMP/nul/qd1.json" 12 '\u'): jobs\[0\].jobname: a NUL character \(\\\\u0000\), which would cut the text there" \
	"fio: a jobname with \\u0000 (cut to 'qd1' before)" "$TMP/nul/qd1.json"
fiox latin1 "8s/f.dat/f$(printf '\xe9').dat/"
bad fio "latin1/qd1.json:8:20: \"global options\".filename: not UTF-8 \(byte 0xe9\), which JSON text is \(RFC 8259\)" \
	"fio: a Latin-1 file name (stored as invalid UTF-8 before)" "$TMP/latin1/qd1.json"
fiox surr '12s/"qd1"/"qd1\\ud800"/'
bad fio "surr/qd1.json:12:[0-9]+: jobs\[0\].jobname: the first half of a UTF-16 surrogate pair without its second" \
	"fio: a lone surrogate escape (SQLite stores it as bytes that are not UTF-8)" "$TMP/surr/qd1.json"
fiox pair '12s/"qd1"/"qd1 \\ud83d\\ude00 \\\\u0000 caf\\u00e9"/'
good fio "fio: a surrogate pair, an escaped backslash before u0000 and \\u00e9 are text" "$TMP/pair/qd1.json"
is "$(q "$GOOD" "SELECT name FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.source_file LIKE '%pair/qd1.json'")" \
	"qd1 😀 \\u0000 café" "fio: and the name is stored as those characters"
mkdir -p "$TMP/nm" && cp "$FIO/qd1.json" "$TMP/nm/r$(printf '\xff').json"
good fio "fio: a file whose name is not UTF-8" "$TMP/nm/r$(printf '\xff').json"
is "$(q "$GOOD" "SELECT hex(label) FROM runs WHERE source_file LIKE '%nm/r%'")" "72EFBFBD2E6A736F6E" \
	"fio: its default label has U+FFFD for the byte (labels are UTF-8)"
xedit xnul 's/"label": "LSI 9361-8i (bench 2)"/"label": "LSI\\u0000 evil"/'
bad hbatest "xnul.json:6:[0-9]+: runs\[0\].label: a NUL character" \
	"hbatest: a label with \\u0000 (cut to 'LSI' before)" "$TMP/xnul.json"
xedit xutf "s/\"label\": \"LSI 9361-8i (bench 2)\"/\"label\": \"LSI$(printf '\xff\xfe')\"/"
bad hbatest "xutf.json:6:[0-9]+: runs\[0\].label: not UTF-8 \(byte 0xff\)" \
	"hbatest: a label that is not UTF-8" "$TMP/xutf.json"
cp "$SEED" "$DB"
before=$(dbsum)
out=$("$HB" import fio "$FIO/qd1.json" --label "card$(printf '\xff\xfe')A" --db "$DB" 2>&1)
is "$?:$(dbsum)" "2:$before" "import --label that is not UTF-8: exit 2, database byte-identical"
like "$out" "option '--label' is not UTF-8 \(byte 5 is 0xff\): 'card\\\\xff\\\\xfeA'" \
	"import --label that is not UTF-8: $(printf '%s' "$out" | head -1)"

# ------------------------------------------------ fio logs against the JSON (items 5 and 14)
L=qd1_iops.1.log
fiox gap '' iops '2d'
bad fio "gap/qd1_bw.1.log:2:1: a read entry for second 1, but '.*gap/qd1_iops.1.log' has none for it" \
	"an IOPS log with a gap beside its bandwidth log (a second of 0 I/Os and 24 MB before)" \
	"$TMP/gap/qd1.json" "$TMP/gap/$L" "$TMP/gap/qd1_bw.1.log"
fiox gapbw '' bw '3d'
bad fio "gapbw/qd1_iops.1.log:3:1: a read entry for second 2, but '.*gapbw/qd1_bw.1.log' has none" \
	"a bandwidth log with a gap beside its IOPS log" "$TMP/gapbw/qd1.json" "$TMP/gapbw/$L" "$TMP/gapbw/qd1_bw.1.log"
fiox extra '' iops '$a 5000, 6000, 0, 0, 0'
bad fio "extra/$L:4:1: an entry at 5000 ms, after job 'qd1''s end \(4001 ms: the longest of its runtimes in its JSON\)" \
	"a log with more entries than the job's seconds (seconds added before)" "$TMP/extra/qd1.json" "$TMP/extra/$L"
fiox wdir '' iops 's/, 0, 0, 0$/, 1, 0, 0/'
bad fio "wdir/$L:1:1: a write entry, but job 'qd1' did no writes \(its JSON's write total_ios is 0\)" \
	"a write log on a read job (stored as writes before)" "$TMP/wdir/qd1.json" "$TMP/wdir/$L"
fiox twice '' iops 's/^\([0-9]*\), \([0-9]*\),/\1, \2\2,/'
bad fio "twice/$L:1:1: its read entries come to [0-9]+ I/Os, more than job 'qd1''s 25426 \(read total_ios in its JSON\)" \
	"a log whose I/Os exceed the JSON's" "$TMP/twice/qd1.json" "$TMP/twice/$L"
fiox half '' iops 's/^\([0-9]*\), \([0-9]*\)[0-9],/\1, \2,/'
bad fio "half/$L:1:1: its read entries come to [0-9]+ I/Os in 3 s, where job 'qd1' did 25426 in 4.001 s" \
	"a log of a tenth of the JSON's I/Os" "$TMP/half/qd1.json" "$TMP/half/$L"
mkdir -p "$TMP/mixw" && cp "$FIO/mix.json" "$TMP/mixw/"
grep -v ', 1, 0, 0$' "$FIO/mix_iops.1.log" > "$TMP/mixw/mix_iops.1.log"
bad fio "mixw/mix_iops.1.log:1:1: its write entries come to 0 I/Os in 2 s, where job 'mix' did [0-9]+" \
	"a mixed job's log without its writes (seconds of 0 writes before)" "$TMP/mixw/mix.json" "$TMP/mixw/mix_iops.1.log"
fiox lat '' clat '2s/, [0-9]*, 0,/, 7, 0,/'
bad fio "lat/qd1_clat.1.log:2:1: a clat latency of 7 ns, outside job 'qd1''s range in its JSON \(2976 to 25817266 ns\)" \
	"a latency log outside the JSON's range" "$TMP/lat/qd1.json" "$TMP/lat/$L" "$TMP/lat/qd1_clat.1.log"
fiox order '' iops '2{h;d};3G'
bad fio "order/$L:3:1: out of order: an entry at 2002 ms after one at 3007 ms \(line 2\)" \
	"an out-of-order log (blamed on log_avg_msec before)" "$TMP/order/qd1.json" "$TMP/order/$L"
fiox dup ''
bad fio "dup/$L:1:1: job 'qd1''s iops log of thread 1 is given twice" \
	"one log given twice" "$TMP/dup/qd1.json" "$TMP/dup/$L" "$TMP/dup/$L"
good fio "fio: a write with verify imports: its write log runs past the writes' runtime, its reads have no rate entry" \
	"$FIO/verify.json" "$FIO"/verify_*.log
good fio "fio: the logs as fio wrote them import" "$FIO/qd1.json" "$FIO"/qd1_*.log
is "$(q "$GOOD" "SELECT group_concat(t || ':' || read_ops || ':' || read_bytes, ' ') FROM (SELECT s.* FROM samples s JOIN steps p ON p.id = s.step_id JOIN runs r ON r.id = p.run_id WHERE r.source_file = '$FIO/qd1.json' ORDER BY t)")" \
	"0:6112:25037824 1:6027:24686592 2:6426:26323968" "fio: a sample a second from those logs"

# --label names one run: several result files with one label are refused
# before anything is made (each would be a run of the same label)
out=$("$HB" import fio "$FIO/qd1.json" "$FIO/mix.json" --label two --db "$TMP/two.db" 2>&1)
like "$? $out" "^2 .*--label 'two' names one run, and the 2 result files given make 2: import each with a --label of its own" \
	"--label with two result files: refused (exit 2), saying why and what to do"
[ ! -e "$TMP/two.db" ]; ok $? "and no database made"
"$HB" import fio "$FIO/qd1.json" "$FIO"/qd1_*.log --label one --db "$TMP/one.db" >/dev/null 2>&1
is "$?:$(q "$TMP/one.db" "SELECT count(*) FROM runs WHERE label = 'one'")" "0:1" \
	"--label with one result file and its logs (companions, not results): imported"


done_testing
