#!/usr/bin/env bash
# hbatest import iometer, hostile and genuine inputs (issue 32): the values
# Iometer cannot write refused at FILE:LINE:COLUMN, its own trailing commas
# and inst header accepted, encodings (a UTF-8 byte-order mark, UTF-16,
# Windows-1252 text), a NUL byte, and a result of thousands of rows read in
# one walk (each name recorded once per run, each inst block found).
. "$(dirname "$0")/lib.sh"

DB="$TMP/imp.db"
FIX="$ROOT/tests/fixtures/iometer"
B="$FIX/results-1.1.0-bins.csv"		# 80 columns, CRLF, 'Results header at line 14
I="$FIX/instresults-1.1.0-bins.csv"	# its inst file, header at line 14
A="$FIX/results-aborted.csv"		# 59 columns, CRLF
dbsum() { sha256sum < "$DB"; }

if ! command -v python3 >/dev/null; then
	skip "python3 not installed"
	done_testing
	exit
fi

# the database the refusals below must leave byte-identical
"$HB" import iometer "$FIX/results-2006.07.27.csv" --db "$DB" >/dev/null 2>&1
ok $? "a database with an Iometer run in it"

# bad FILE PATTERN WHAT [more files]: refused with PATTERN, exit 1, the
# database byte-identical
bad() {
	local file=$1 pat=$2 what=$3 before out rc; shift 3
	before=$(dbsum)
	out=$("$HB" import iometer "$file" "$@" --db "$DB" 2>&1); rc=$?
	is "$rc" 1 "$what: exit 1"
	like "$out" "$pat" "$what: $(printf '%s' "$out" | head -1 | sed "s|$TMP/||g")"
	is "$(dbsum)" "$before" "$what: database byte-identical"
}

# set IN OUT LINE COLUMN VALUE: OUT is IN with the field of that header
# column on line LINE (1-based; the header is the 'Results line after it,
# or the 'size line for a specification) set to VALUE; prints the field's
# column (bytes, 1-based)
cat > "$TMP/set.py" <<'PY'
import sys
src, dst, n, name, value = sys.argv[1:6]
n = int(n)
data = open(src, "rb").read()
eol = b"\r\n" if b"\r\n" in data else b"\n"
lines = data.split(eol)
hdr = None
for i in range(n - 1, -1, -1):
    if lines[i].startswith((b"'Target Type", b"TimeStamp,", b"'size")):
        hdr = [h.lstrip(b"'").decode() for h in lines[i].split(b",")]
        break
f = lines[n - 1].split(b",")
k = hdr.index(name)
f[k] = value.encode("latin-1")
lines[n - 1] = b",".join(f)
open(dst, "wb").write(eol.join(lines))
print(len(b",".join(f[:k])) + (2 if k else 1))
PY
set_field() { python3 "$TMP/set.py" "$@"; }

# ------------------------------------------------ item 17: Iometer's own commas
# Iometer 1.1.0 (AccessSpecList::SaveResults since 2014) ends each access
# specification line with a comma; its inst file's header has the 59-column
# MBps names before the bins (CGalileoView::PrepareInstantaneousFile)
is "$(sed -n 11p "$B" | tr -d '\r')" "4096,100,0,100,0,1,0,0," "the 2014 fixture's specification line ends with a comma"
out=$("$HB" import iometer "$B" --db "$TMP/b.db" 2>&1)
ok $? "Iometer 1.1.0's results.csv with its trailing commas imports ($(echo $out | sed "s|$FIX/||g"))"
is "$(q "$TMP/b.db" "SELECT bs || ' ' || rw || ' ' || write_pct FROM steps")" "4k randwrite 100" \
	"the specification line with its trailing comma is read: 4k randwrite 100"
is "$(q "$TMP/b.db" "SELECT count(*) FROM samples")" 3 "its inst file (MBps names, then bins) gives the samples"
sed 's/^512,100,100,0,0,1,0,0\r$/512,100,100,100,0,1,0,0,\r/' "$A" > "$TMP/issue.csv"
grep -q '^512,100,100,100,0,1,0,0,.$' "$TMP/issue.csv"
ok $? "the issue's line 512,100,100,100,0,1,0,0, in a 59-column file"
out=$("$HB" import iometer "$TMP/issue.csv" --db "$TMP/issue.db" 2>&1)
ok $? "it imports ($(echo $out | sed "s|$TMP/||g"))"
is "$(q "$TMP/issue.db" "SELECT bs || ' ' || rw FROM steps")" "512 randread" "and reads as 512 randread"
sed 's/^4096,100,0,100,0,1,0,0,\r$/4096,100,0,100,0,1,0,0,7\r/' "$B" > "$TMP/nine.csv"
bad "$TMP/nine.csv" "nine.csv:11:24: an access specification line has 8 fields \(size,% of size,% reads,% random,delay,burst,align,reply\), not 9" \
	"a ninth field that is not empty"
sed 's/^4096,100,0,100,0,1,0,0,\r$/4096,100,0,100,0,1,0,0,,\r/' "$B" > "$TMP/ten.csv"
bad "$TMP/ten.csv" "ten.csv:11:24: .*, not 10" "two trailing commas"

# ------------------------------------------------ item 12: impossible values
# each refused at its line and column, not stored
impossible() {	# FILE LINE COLUMN VALUE PATTERN WHAT
	local name=$6 out col
	out="$TMP/v$tap_n.csv"
	col=$(set_field "$1" "$out" "$2" "$3" "$4")
	bad "$out" "$(basename "$out"):$2:$col: $5" "$name"
}
impossible "$B" 15 IOps -5.000000 "IOps: '-5.000000' is negative" "negative IOps"
impossible "$B" 20 "Average Response Time" -0.776183 "Average Response Time: '-0.776183' is negative" \
	"a negative response time (a DISK row)"
impossible "$B" 15 "Maximum Response Time" -9 "Maximum Response Time: '-9' is negative" \
	"a negative maximum response time"
impossible "$B" 16 "Total Raw Run Time" 0 "Total Raw Run Time: '0' is not above 0" "a run time of 0 (window_s 0)"
impossible "$B" 16 "Total Raw Run Time" -8379000000 "Total Raw Run Time: '-8379000000' is not above 0" \
	"a negative run time"
impossible "$B" 16 "Processor Speed" 1e-300 \
	"Processor Speed: '1e-300' gives a run time \(Total Raw Run Time / Processor Speed\) of inf s; a run takes above 0 and at most 2147483647 s" \
	"Processor Speed=1e-300 (window_s Inf)"
impossible "$B" 16 "Processor Speed" 0 "Processor Speed: '0' is not above 0" "a Processor Speed of 0"
impossible "$B" 15 IOps 0x4FD1 "IOps: '0x4FD1' is not a decimal number" "a hexadecimal IOps"
impossible "$B" 15 "# Disks" 0x1 "# Disks: '0x1' is not a decimal number" "a hexadecimal # Disks"
impossible "$B" 15 IOps inf "IOps: 'inf' is not a decimal number" "IOps inf"
impossible "$B" 15 IOps nan "IOps: 'nan' is not a decimal number" "IOps nan"
impossible "$B" 15 IOps " 12" "IOps: ' 12' is not a decimal number" "a number after a blank"
impossible "$B" 15 IOps 1e999 "IOps: '1e999' is out of range" "IOps 1e999"
impossible "$B" 15 "# Disks" 3e9 "# Disks: '3e9' is too large \(at most 2147483647\)" "# Disks=3e9 (oio wrapped)"
set_field "$B" "$TMP/qd.csv" 15 "Queue Depth" 65536 >/dev/null
impossible "$TMP/qd.csv" 15 "# Disks" 65536 \
	"# Disks: 65536 at Queue Depth 65536 make 4294967296 outstanding I/Os, more than 2147483647" \
	"Queue Depth x # Disks past an int"
impossible "$B" 15 "Queue Depth" -2 "Queue Depth: '-2' is not at least -1" "a Queue Depth below -1"
impossible "$B" 15 "Write I/Os" 61300.5 "Write I/Os: '61300.5' is not a whole number" "half an I/O"
impossible "$B" 15 "Bytes Written" 1e19 "Bytes Written: '1e19' is too large \(at most 9223372036854774784\)" \
	"more bytes than an int64 holds"
impossible "$B" 15 "Errors" -1 "Errors: '-1' is negative" "negative errors"
impossible "$B" 11 "% reads" 120 "access specification, % reads: '120' is too large \(at most 100\)" \
	"a specification of 120 % reads"
impossible "$B" 11 size -4096 "access specification, size: '-4096' is negative" "a negative transfer size"
impossible "$B" 11 size 0x1000 "access specification, size: '0x1000' is not a decimal number" \
	"a hexadecimal transfer size"
# the inst file's rows too
mkdir -p "$TMP/inst"
cp "$B" "$TMP/inst/r.csv"
col=$(set_field "$I" "$TMP/inst/instr.csv" 15 "Write I/Os" -20500)
bad "$TMP/inst/r.csv" "instr.csv:15:$col: Write I/Os: '-20500' is negative" "a negative count in the inst file"
col=$(set_field "$I" "$TMP/inst/instr.csv" 16 "Processor Speed" 1e-300)
bad "$TMP/inst/r.csv" "instr.csv:16:$col: Processor Speed: '1e-300' gives a run time" \
	"Processor Speed=1e-300 in the inst file"
# a value Iometer writes as -1 (AMBIGUOUS_VALUE: the workers' depths differ)
set_field "$B" "$TMP/amb.csv" 15 "Queue Depth" -1 >/dev/null
"$HB" import iometer "$TMP/amb.csv" --db "$TMP/amb.db" >/dev/null 2>&1
is "$?:$(q "$TMP/amb.db" "SELECT coalesce(oio, 'none') FROM steps")" "0:none" \
	"Queue Depth -1 (the workers differ) is imported, with no oio"

# ------------------------------------------------ item 13: encodings
printf '\xef\xbb\xbf' | cat - "$FIX/results-1.1.0-multi.csv" > "$TMP/bom.csv"
out=$("$HB" import iometer "$TMP/bom.csv" --db "$TMP/bom.db" 2>&1)
ok $? "a UTF-8 byte-order mark is accepted ($(echo $out | sed "s|$TMP/||g"))"
is "$(q "$TMP/bom.db" "SELECT group_concat(hex(label), ' ') FROM runs")" \
	"$(printf 'OIO sweep' | od -An -tx1 | tr -d ' \n' | tr a-f A-F) $(printf 'Two disks' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" \
	"the labels hold no byte-order mark"
mkdir -p "$TMP/bom2"
cp "$B" "$TMP/bom2/r.csv"
printf '\xef\xbb\xbf' | cat - "$I" > "$TMP/bom2/instr.csv"
"$HB" import iometer "$TMP/bom2/r.csv" --db "$TMP/bom2.db" >/dev/null 2>&1
is "$?:$(q "$TMP/bom2.db" "SELECT count(*) FROM samples")" "0:3" "an inst file after a byte-order mark gives its samples"
# UTF-16: the message is the command's (core/cmd/import.c reads the head);
# until it asks iometer_head_refusal, it says "a NUL byte: binary data"
utf16() {	# ICONV-ENCODING BOM NAME
	local f="$TMP/u16-$3.csv" before out rc
	{ printf "$2"; iconv -f UTF-8 -t "$1" "$A"; } > "$f"
	before=$(dbsum)
	out=$("$HB" import iometer "$f" --db "$DB" 2>&1); rc=$?
	is "$rc:$(dbsum)" "1:$before" "a $3 file: exit 1, database byte-identical"
	like "$out" "u16-$3.csv:1:1: the file is $4.*save it as UTF-8" "a $3 file is named as such"
}
utf16 UTF-16LE '\xff\xfe' le-bom "UTF-16 LE \(a byte-order mark FF FE\)"
utf16 UTF-16BE '\xfe\xff' be-bom "UTF-16 BE \(a byte-order mark FE FF\)"
utf16 UTF-16LE '' le "UTF-16 LE \(a NUL byte after each character\)"

# ------------------------------------------------ item 3: Windows-1252 text
# Iometer writes the Windows ANSI code page: "Prüfung" as 50 72 FC ...
sed -e 's/^0,Stopped\r$/0,Pr\xfcfung \x80\r/' -e 's/BENCH-ABORT/M\xe9trologie/g' \
	-e 's/PHYSICALDRIVE:6/Laufwerk \xb5/g' "$A" > "$TMP/latin1.csv"
out=$("$HB" import iometer "$TMP/latin1.csv" --db "$TMP/latin1.db" 2>&1)
ok $? "a Windows-1252 file imports ($(echo $out | sed "s|$TMP/||g"))"
is "$(q "$TMP/latin1.db" "SELECT label FROM runs")" "Prüfung €" "its description is the run's label, in UTF-8"
is "$(q "$TMP/latin1.db" "SELECT host FROM runs")" "Métrologie" "its manager is the host"
is "$(q "$TMP/latin1.db" "SELECT group_concat(path, '|') FROM targets")" "Laufwerk µ" "its disk is a target"
python3 - "$TMP/latin1.db" > "$TMP/utf8-check.txt" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.text_factory = bytes; bad = []
for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
    t = t.decode()
    for row in db.execute(f"SELECT * FROM {t}"):
        for v in row:
            if isinstance(v, bytes):
                try: v.decode("utf-8")
                except UnicodeDecodeError: bad.append(f"{t}: {v!r}")
print("\n".join(bad) if bad else "all UTF-8")
PY
is "$(cat "$TMP/utf8-check.txt")" "all UTF-8" "every text the import wrote is UTF-8"
# no description: the run is named by its file, a byte that is not UTF-8 as
# U+FFFD (as the fio importer does)
sed 's/^0,Stopped\r$/0,\r/' "$A" > "$TMP/$(printf 'r\xff.csv')"
"$HB" import iometer "$TMP/$(printf 'r\xff.csv')" --db "$TMP/name.db" >/dev/null 2>&1
is "$?:$(q "$TMP/name.db" "SELECT hex(label) FROM runs")" "0:72EFBFBD2E637376" \
	"a file named r\\xff.csv without a description: the label is r\\ufffd.csv"
ln=$(grep -an '^DISK' "$TMP/latin1.csv" | cut -d: -f1)
col=$(set_field "$TMP/latin1.csv" "$TMP/latin1-bad.csv" "$ln" "Read I/Os" "12x5")
bad "$TMP/latin1-bad.csv" "latin1-bad.csv:$ln:$col: Read I/Os: '12x5' is not a decimal number" \
	"a fault after Windows-1252 text is at the file's column"

# ------------------------------------------------ item 10: a NUL byte
sed 's/^0,Stopped\r$/0,Sto\x00pped\r/' "$A" > "$TMP/nul.csv"
bad "$TMP/nul.csv" "nul.csv:2:6: a NUL byte: binary data, not an Iometer results file" \
	"a NUL byte in the description"

# ------------------------------------------------ item 6: thousands of rows
# Two tests, each with two results of 2000 disks (each under two workers:
# one disk twice) and 1500 processors; the inst file has blocks for result
# 2 of test 1 and result 1 of test 2 only. Structural: each name recorded
# once per run, each disk a target once, the inst blocks found in order.
mkdir -p "$TMP/big"
python3 - "$B" "$I" "$TMP/big/r.csv" "$TMP/big/instr.csv" <<'PY'
import sys
res, inst, out, iout = sys.argv[1:5]
r = open(res, newline="").read().split("\r\n")
i = open(inst, newline="").read().split("\r\n")
row = {l.split(",")[0]: l for l in r if l.split(",")[0] in ("ALL", "MANAGER", "WORKER", "DISK", "PROCESSOR")}
def named(l, name): f = l.split(","); f[1] = name; return ",".join(f)
def result(k):
    rows = ["'Results", r[13], row["ALL"], row["MANAGER"]]
    rows += [named(row["PROCESSOR"], "CPU %d" % c) for c in range(1500)]
    for w in (1, 2):
        rows.append(named(row["WORKER"], "Worker %d" % w))
        rows += [named(row["DISK"], "PHYSICALDRIVE:%d" % d) for d in (range(0, 1001) if w == 1 else range(1000, 2000))]
    return rows + ["'Time Stamp", "2014-03-05 11:0%d:0%d:100" % (k // 2, k % 2)]
lines, ilines = [], []
for t in (1, 2):
    head = r[0:5] + ["2014-03-05 1%d:00:00:000" % t] + r[6:12]
    lines += head + result(2 * t) + head[6:] + result(2 * t + 1) + ["'End Test"]
    ihead = i[0:5] + ["2014-03-05 1%d:00:00:000" % t] + i[6:12]
    ilines += ihead
    for blk in (1, 2):
        ilines += ["'Results", i[13]]
        if (t, blk) in ((1, 2), (2, 1)):
            ilines += i[14:18]
        ilines += ["'Time Stamp", "2014-03-05 11:00:05:060"]
    ilines += ["'End Test"]
open(out, "w", newline="").write("\r\n".join(lines) + "\r\n")
open(iout, "w", newline="").write("\r\n".join(ilines) + "\r\n")
PY
out=$("$HB" import iometer "$TMP/big/r.csv" --db "$TMP/big.db" 2>&1)
ok $? "two tests of two 5,500-row results import ($(echo $out | sed "s|$TMP/||g"))"
each() {	# SQL per run -> "a b"
	q "$TMP/big.db" "SELECT group_concat(n, ' ') FROM (SELECT ($1) AS n FROM runs r ORDER BY r.id)"
}
is "$(each "SELECT count(*) FROM targets t WHERE t.run_id = r.id")" "2000 2000" \
	"each disk a target once per run (disk 1000 under both workers)"
is "$(each "SELECT count(*) FROM probes p WHERE p.run_id = r.id AND p.key = 'processor'")" "1500 1500" \
	"each processor a probe once per run, not once per result"
is "$(each "SELECT count(*) FROM probes p WHERE p.run_id = r.id AND p.key = 'worker'")" "2001 2001" \
	"each disk's worker a probe once (disk 1000 has two)"
is "$(each "SELECT count(*) FROM probes p WHERE p.run_id = r.id AND p.key = 'manager'")" "2001 2001" \
	"each disk's manager once, and the manager itself"
is "$(q "$TMP/big.db" "SELECT group_concat(n, ' ') FROM (SELECT count(st.path) AS n FROM steps s LEFT JOIN step_targets st ON st.step_id = s.id GROUP BY s.id ORDER BY s.id)")" \
	"2002 2002 2002 2002" "each result: its 2000 disks and 2 workers as step targets"
is "$(q "$TMP/big.db" "SELECT read_ops + write_ops FROM step_targets WHERE path = 'PHYSICALDRIVE:1000' LIMIT 1")" \
	"$(q "$TMP/b.db" "SELECT 2 * (read_ops + write_ops) FROM step_targets WHERE path = 'PHYSICALDRIVE:5'")" \
	"a disk under two workers: their counts added"
is "$(q "$TMP/big.db" "SELECT group_concat(n, ' ') FROM (SELECT count(x.t) AS n FROM steps s LEFT JOIN samples x ON x.step_id = s.id GROUP BY s.id ORDER BY s.id)")" \
	"0 3 3 0" "the inst blocks of test 1 result 2 and test 2 result 1 go to their steps"

done_testing
