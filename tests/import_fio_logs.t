#!/usr/bin/env bash
# hbatest import fio: which logs a JSON takes and how (one entry a second,
# the same folder, a grouped job's threads summed, rates from each other with
# a fixed bs, latency of the step's kind), refusals that leave nothing
# imported, and the job options read into the step (window, ramp, depth,
# targets).
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null || ! command -v python3 >/dev/null; then
	skip "fio or python3 not installed"
	done_testing
	exit
fi
D="$TMP/f.dat"
truncate -s 64m "$D"
fio_run() {	# FOLDER OUT.json FIO-ARGS...: a small fio run
	local dir=$1 out=$2; shift 2
	mkdir -p "$dir"
	( cd "$dir" && nice fio --output-format=json+ --ioengine=io_uring --filename="$D" \
		--rw=randread --bs=4k --time_based "$@" > "$out" 2>/dev/null )
}
# refused DB PATTERN WHAT ARGS...: exit 1, no database made
refused() {
	local db=$1 pat=$2 what=$3 out rc; shift 3
	out=$("$HB" import fio "$@" --db "$db" 2>&1); rc=$?
	is "$rc" 1 "$what: exit 1"
	like "$out" "$pat" "$what: $(printf '%s' "$out" | head -1 | sed "s|$TMP/||g")"
	ok "$([ -e "$db" ] && echo 1 || echo 0)" "$what: nothing imported (no database made)"
}

# 1. logs without log_avg_msec=1000 are a line per I/O, or another interval
fio_run "$TMP/raw" raw.json --name=raw --iodepth=4 --runtime=1 --write_iops_log=raw --write_bw_log=raw
refused "$TMP/raw.db" "raw_iops.1.log:1:1: job 'raw' ran without log_avg_msec, so fio logged every I/O, not a mean a second: rerun fio with --log_avg_msec=1000" \
	"per-I/O logs" "$TMP/raw/raw.json" "$TMP"/raw/raw_iops.1.log "$TMP"/raw/raw_bw.1.log
fio_run "$TMP/a2" a2.json --name=a2 --iodepth=4 --runtime=2 --write_iops_log=a2 --log_avg_msec=2000
refused "$TMP/a2.db" "a2_iops.1.log:1:1: job 'a2' logged a mean every 2000 ms \(log_avg_msec=2000\), not every second" \
	"logs of a 2 s interval" "$TMP/a2/a2.json" "$TMP"/a2/a2_iops.1.log
# the same lines with the option edited in: the log itself tells
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['jobs'][0]['job options']['log_avg_msec']='1000'
json.dump(d, open(sys.argv[2], 'w'))" "$TMP/raw/raw.json" "$TMP/raw/edited.json"
refused "$TMP/raw.db" "raw_iops.1.log:3:1: a second entry in one second: fio logged more often than once a second" \
	"per-I/O lines under log_avg_msec=1000" "$TMP/raw/edited.json" "$TMP"/raw/raw_iops.1.log

# 2. a log is the JSON's of its folder: two runs of one name stay apart
fio_run "$TMP/A" qd.json --name=qd --iodepth=1 --runtime=2 --write_iops_log=qd --log_avg_msec=1000
fio_run "$TMP/B" qd.json --name=qd --iodepth=8 --runtime=2 --write_iops_log=qd --log_avg_msec=1000
"$HB" import fio "$TMP/A/qd.json" "$TMP/A/qd_iops.1.log" "$TMP/B/qd.json" "$TMP/B/qd_iops.1.log" \
	--db "$TMP/ab.db" >/dev/null 2>&1
ok $? "two runs of one job name, each with its log"
for r in A B; do
	want=$(awk -F, '$3 == 0 { s += $2 } END { print s + 0 }' "$TMP/$r/qd_iops.1.log")
	is "$(q "$TMP/ab.db" "SELECT sum(samples.read_ops) FROM samples JOIN steps ON steps.id = step_id JOIN runs ON runs.id = run_id WHERE source_file = '$TMP/$r/qd.json'")" \
		"$want" "run $r's samples are its own log's, not the mean of both"
done
refused "$TMP/ab2.db" "'.*B/qd_iops.1.log': no fio JSON file given from its folder" \
	"a log away from its JSON" "$TMP/A/qd.json" "$TMP/B/qd_iops.1.log"
cp "$TMP/A/qd.json" "$TMP/A/qd-copy.json"
refused "$TMP/ab2.db" "'.*A/qd_iops.1.log' is a log of a job of both '.*A/qd.json' and '.*A/qd-copy.json'" \
	"a log two JSONs of its folder could take" "$TMP/A/qd.json" "$TMP/A/qd-copy.json" "$TMP/A/qd_iops.1.log"

# 3. group_reporting: one entry for numjobs threads; their logs are its own
fio_run "$TMP/g" rt.json --name=rt --iodepth=8 --numjobs=4 --group_reporting --ramp_time=1 \
	--runtime=2 --write_iops_log=rt --log_avg_msec=1000
"$HB" import fio "$TMP/g/rt.json" "$TMP"/g/rt_iops.[1-4].log --db "$TMP/g.db" >/dev/null 2>&1
ok $? "a grouped job takes the logs of its 4 threads"
is "$(q "$TMP/g.db" "SELECT oio || ' ' || workers || ' ' || ramp_s FROM steps")" "32 4 1" \
	"group_reporting: oio numjobs x iodepth, workers numjobs, ramp_s from ramp_time"
# each file as the import reads it: whole seconds down, minus one; an entry
# in the second of the one before (fio's flush at the job's end) the next
want=$(python3 -c "
import sys; s = {}
for name in sys.argv[1:]:
    last = -1
    for l in open(name):
        f = [int(x) for x in l.split(',')]
        if f[2] != 0: continue
        t = max(0, f[0] // 1000 - 1)
        t = last + 1 if t <= last else t
        s[t], last = s.get(t, 0) + f[1], t
print(' '.join(f'{t}:{v}' for t, v in sorted(s.items())))" "$TMP"/g/rt_iops.[1-4].log)
is "$(q "$TMP/g.db" "SELECT group_concat(t || ':' || read_ops, ' ') FROM (SELECT * FROM samples ORDER BY t)")" \
	"$want" "a grouped job's seconds: its threads' IOPS summed"

# 4. nothing is imported when a log is refused
fio_run "$TMP/n" qd4.json --name=qd4 --iodepth=4 --runtime=1
refused "$TMP/n.db" "cannot read fio log '.*nosuch_iops.1.log': No such file or directory" \
	"a log that is not there" "$TMP/n/qd4.json" "$TMP/n/nosuch_iops.1.log"
"$HB" import fio "$TMP/n/qd4.json" --db "$TMP/n.db" >/dev/null 2>&1
ok $? "the JSON imports once its log is left out (no 'already imported')"
touch "$TMP/n/qd4_bw.1.log" "$TMP/n/qd4_iops.log"
refused "$TMP/n2.db" "'.*qd4_bw.1.log' belongs to no job of the fio files given from its folder \(fio writes NAME_bw.N.log for job N with write_bw_log=NAME\)" \
	"a bandwidth log of no job, named as one" "$TMP/n/qd4.json" "$TMP/n/qd4_bw.1.log"
refused "$TMP/n2.db" "'.*qd4_iops.log' is a fio log of all jobs in one file \(per_job_logs=0\)" \
	"a per_job_logs=0 log" "$TMP/n/qd4.json" "$TMP/n/qd4_iops.log"

# 5. an IOPS log alone: bytes from the fixed bs; a bandwidth log alone: I/Os
fio_run "$TMP/r" r.json --name=r --iodepth=4 --runtime=2 --write_iops_log=r --write_bw_log=r --log_avg_msec=1000
"$HB" import fio "$TMP/r/r.json" "$TMP/r/r_iops.1.log" --db "$TMP/r1.db" >/dev/null 2>&1
ok $? "an IOPS log alone imports"
is "$(q "$TMP/r1.db" "SELECT count(*) > 0 AND count(*) = count(CASE WHEN read_ops > 0 AND read_bytes = read_ops * 4096 THEN 1 END) FROM samples")" 1 \
	"an IOPS log alone: each second's bytes are its I/Os x bs 4k"
"$HB" import fio "$TMP/r/r.json" "$TMP/r/r_bw.1.log" --db "$TMP/r2.db" >/dev/null 2>&1
ok $? "a bandwidth log alone imports"
want=$(awk -F, '$3 == 0 { printf "%s%d", n++ ? " " : "", $2 / 4 + 0.5 }' "$TMP/r/r_bw.1.log")
is "$(q "$TMP/r2.db" "SELECT group_concat(read_ops, ' ') FROM (SELECT * FROM samples ORDER BY t)")" "$want" \
	"a bandwidth log alone: each second's I/Os are its KiB / 4"
fio_run "$TMP/s" s.json --name=s --iodepth=4 --runtime=2 --bssplit=4k/50:8k/50 --write_iops_log=s --log_avg_msec=1000
refused "$TMP/s.db" "s_iops.1.log:1:1: job 's' has an IOPS log but no bandwidth log, and no fixed bs" \
	"an IOPS log alone of a job of mixed sizes" "$TMP/s/s.json" "$TMP/s/s_iops.1.log"

# 6. a second's latency times what the step's does (clat unless lat_percentiles)
fio_run "$TMP/l" l.json --name=l --iodepth=4 --runtime=2 --write_lat_log=l --write_iops_log=l --log_avg_msec=1000
out=$("$HB" import fio "$TMP/l/l.json" "$TMP"/l/l_iops.1.log "$TMP"/l/l_lat.1.log "$TMP"/l/l_slat.1.log --db "$TMP/l1.db" 2>&1)
like "$out" "warning: '.*l_lat.1.log' times lat latency, but job 'l''s latency is clat \(fio's clat_ns\)" \
	"a lat log for a clat step: warned"
like "$out" "warning: '.*l_slat.1.log': submission latency, which hbatest does not store: not used" \
	"a slat log: warned, named"
is "$(q "$TMP/l1.db" "SELECT count(*) > 0 AND count(read_lat_mean_us) = 0 FROM samples")" 1 \
	"a lat log is not a clat step's latency (its seconds stored, without latency)"
"$HB" import fio "$TMP/l/l.json" "$TMP"/l/l_iops.1.log "$TMP"/l/l_clat.1.log "$TMP"/l/l_lat.1.log --db "$TMP/l2.db" >/dev/null 2>&1
want=$(awk -F, '$3 == 0 && NR == 1 { printf "%.3f", $2 / 1000 }' "$TMP/l/l_clat.1.log")
is "$(q "$TMP/l2.db" "SELECT printf('%.3f', read_lat_mean_us) FROM samples WHERE t = 0")" \
	"$want" "a clat step's seconds: the clat log's latency, though the lat log is given"

# 7. window_s: the msec fio divides by, unrounded: iops = ops / window_s
runtime=$(python3 -c "import json,sys; r = json.load(open(sys.argv[1]))['jobs'][0]['read']; print(r['runtime'] / 1000, r['iops'], r['total_ios'])" "$TMP/r/r.json")
is "$(q "$TMP/r1.db" "SELECT abs(iops - read_ops * 1.0 / window_s) < 1e-6 * iops AND window_s = ${runtime%% *} FROM steps")" 1 \
	"fio: window_s is the read runtime in seconds, unrounded; iops = read_ops / window_s (fio's runtime s, iops, total_ios: $runtime; stored: $(q "$TMP/r1.db" "SELECT window_s || ' ' || iops || ' ' || read_ops FROM steps"))"
"$HB" import iometer "$ROOT/tests/fixtures/iometer/results-aborted.csv" --db "$TMP/iom.db" >/dev/null 2>&1
is "$(q "$TMP/iom.db" "SELECT group_concat(window_s, ' ') FROM steps")" "7.5" \
	"Iometer: a 7.5 s result has window_s 7.5, not 8"

# 9. targets split at ':' (not '\:'), depths fio would refuse, a BOM, epoch logs
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); o=d['jobs'][0]['job options']
o['filename']='/dev/sdb:/dev/sdc:/tmp/a\\\\:b'; o['size']='3m'; json.dump(d, open(sys.argv[2], 'w'))
o['filesize']='2m'; json.dump(d, open(sys.argv[5], 'w')); del o['filesize']; del o['size']
o['iodepth']='abc'; json.dump(d, open(sys.argv[3], 'w'))
o['iodepth']='99999999999'; json.dump(d, open(sys.argv[4], 'w'))" "$TMP/n/qd4.json" "$TMP/n/t2.json" "$TMP/n/abc.json" "$TMP/n/big.json" "$TMP/n/fs.json"
"$HB" import fio "$TMP/n/t2.json" --db "$TMP/t2.db" >/dev/null 2>&1
is "$(q "$TMP/t2.db" "SELECT group_concat(path || '=' || kind, ' ') FROM (SELECT * FROM targets ORDER BY id)")" \
	"/dev/sdb=block /dev/sdc=block /tmp/a:b=file" "filename a:b:c is three targets; '\\:' is a ':' in a name"
is "$(q "$TMP/t2.db" "SELECT group_concat(size_bytes, ' ') FROM (SELECT * FROM targets ORDER BY id)")" \
	"1048576 1048576 1048576" "size=3m over three files: 1 MiB each, as fio divides it (not 3 MiB each)"
"$HB" import fio "$TMP/n/fs.json" --db "$TMP/fs.db" >/dev/null 2>&1
is "$(q "$TMP/fs.db" "SELECT group_concat(size_bytes, ' ') FROM (SELECT * FROM targets ORDER BY id)")" \
	"2097152 2097152 2097152" "filesize=2m: each file's size, whatever size says"
refused "$TMP/abc.db" "abc.json:1:[0-9]+: iodepth: 'abc' in jobs\[0\] 'qd4' is not a whole number from 1" \
	"iodepth=abc" "$TMP/n/abc.json"
refused "$TMP/abc.db" "big.json:1:[0-9]+: iodepth: '99999999999' in jobs\[0\] 'qd4' is not a whole number" \
	"iodepth=99999999999" "$TMP/n/big.json"
# bs, a direction's runtime and its counts fio would not write: refused as
# iodepth is, naming the job and the key (they were stored as they were, or
# as NULL, and runtime 0 made window_s the job's runtime)
fioedit() {	# NAME PYTHON-EDIT-OF-j (jobs[0])
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); j=d['jobs'][0]; o=j['job options']
$2
json.dump(d, open(sys.argv[2], 'w'))" "$TMP/n/qd4.json" "$TMP/n/$1.json"
}
fioedit bs0 "o['bs']='0'"
fioedit bs4q "o['bs']='4q'"
fioedit bsrw "o['bs']='4k,64k'"
fioedit rt0 "j['read']['runtime']=0"
fioedit rtneg "j['read']['runtime']=-5"
fioedit wrt0 "j['write']['runtime']=0; j['write']['total_ios']=0"
fioedit bytes70 "j['read']['io_bytes']=2**70"
fioedit iosfrac "j['read']['total_ios']=j['read']['total_ios']+0.5"
refused "$TMP/bs.db" "bs0.json:1:[0-9]+: bs: '0' in jobs\[0\] 'qd4' is not a block size of at least 1 byte" \
	"bs=0" "$TMP/n/bs0.json"
refused "$TMP/bs.db" "bs4q.json:1:[0-9]+: bs: '4q' in jobs\[0\] 'qd4' is not a block size" \
	"bs=4q" "$TMP/n/bs4q.json"
"$HB" import fio "$TMP/n/bsrw.json" --db "$TMP/bsrw.db" >/dev/null 2>&1
is "$?:$(q "$TMP/bsrw.db" "SELECT bs FROM steps")" "0:4k,64k" "bs=4k,64k (reads, writes) is imported as fio gives it"
ios=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['read']['total_ios'])" "$TMP/n/qd4.json")
refused "$TMP/rt.db" "rt0.json:1:[0-9]+: runtime: 0 in jobs\[0\] 'qd4' read is not a whole number from 1 to 9223372036854775807 \(ms: fio timed $ios I/Os\)" \
	"a read runtime of 0 ms with I/Os" "$TMP/n/rt0.json"
refused "$TMP/rt.db" "rtneg.json:1:[0-9]+: runtime: -5 in jobs\[0\] 'qd4' read is not a whole number from 1" \
	"a read runtime of -5 ms" "$TMP/n/rtneg.json"
"$HB" import fio "$TMP/n/wrt0.json" --db "$TMP/wrt0.db" >/dev/null 2>&1
ok $? "a direction without I/Os keeps its runtime of 0 ms (fio writes it so)"
refused "$TMP/by.db" "bytes70.json:1:[0-9]+: io_bytes: 1180591620717411303424 in jobs\[0\] 'qd4' read is not a whole number from 0 to 9223372036854775807" \
	"io_bytes of 2^70 (stored as NULL before)" "$TMP/n/bytes70.json"
refused "$TMP/by.db" "iosfrac.json:1:[0-9]+: total_ios: $ios.5 in jobs\[0\] 'qd4' read is not a whole number" \
	"a fractional total_ios" "$TMP/n/iosfrac.json"
{ printf '\357\273\277'; cat "$TMP/n/qd4.json"; } > "$TMP/n/bom.json"
"$HB" import fio "$TMP/n/bom.json" --db "$TMP/bom.db" >/dev/null 2>&1
ok $? "a fio JSON that starts with a UTF-8 byte order mark"
fio_run "$TMP/e" e.json --name=e --iodepth=4 --runtime=2 --write_iops_log=e --log_avg_msec=1000 --log_unix_epoch=1
refused "$TMP/e.db" "e_iops.1.log:1:1: a time beyond 31 days: a Unix epoch time \(log_unix_epoch=1\)\?" \
	"a log_unix_epoch log" "$TMP/e/e.json" "$TMP/e/e_iops.1.log"

# 10. an entry a stall delayed (3500 ms: fio logs at the first completion
# after its interval) keeps its second, and the next (4001) its own. The
# JSON made a 5.1 s job for the log to fit, its entries a quarter and a
# fifth of its I/Os (the import checks both)
mkdir -p "$TMP/stall"
ios=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['jobs'][0]['read']['runtime']=5100
json.dump(d, open(sys.argv[2], 'w')); print(d['jobs'][0]['read']['total_ios'])" "$TMP/r/r.json" "$TMP/stall/r.json")
a=$((ios / 4)) b=$((ios / 5))
printf '1000, %d, 0, 4096, 0\n3500, %d, 0, 4096, 0\n4001, %d, 0, 4096, 0\n5001, %d, 0, 4096, 0\n' \
	$a $b $b $b > "$TMP/stall/r_iops.1.log"
"$HB" import fio "$TMP/stall/r.json" "$TMP/stall/r_iops.1.log" --db "$TMP/stall.db" >/dev/null 2>&1
ok $? "a log with an entry a stall delayed imports (it was refused as a log of every I/O)"
is "$(q "$TMP/stall.db" "SELECT group_concat(t || ':' || read_ops, ' ') FROM (SELECT * FROM samples ORDER BY t)")" \
	"0:$a 2:$b 3:$b 4:$b" "each entry in its second: msec in whole seconds down, minus one"

# 11. a grouped job's logs are of all its threads or none: three of four
# would make each second three quarters of the job's (issue 32); one
# thread's log twice is said so
mkdir -p "$TMP/g3" && cp "$TMP/g/rt.json" "$TMP"/g/rt_iops.[1-3].log "$TMP/g3/"
refused "$TMP/g3.db" "rt_iops.1.log:1:1: job 'rt' ran 4 threads \(numjobs with group_reporting\), but 3 of its iops logs are given: give NAME_iops.N.log of each \(N 1 to 4\)" \
	"three of a grouped job's four IOPS logs" "$TMP/g3/rt.json" "$TMP"/g3/rt_iops.[1-3].log
refused "$TMP/g4.db" "rt_iops.2.log:1:1: job 'rt''s iops log of thread 2 is given twice" \
	"a grouped job's log given twice" "$TMP/g/rt.json" "$TMP"/g/rt_iops.[1-4].log "$TMP/g/rt_iops.2.log"

done_testing
