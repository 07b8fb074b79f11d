#!/usr/bin/env bash
# Step keys cpus= and numa=: the CPU list checked in the dry pass, worker
# threads pinned while they run (their Cpus_allowed_list), buffers asked for
# on the node (numa_maps), and the placement stored with the step and shown.
. "$(dirname "$0")/lib.sh"

DB="$TMP/p.db"
F="$TMP/target.dat"
plan() {	# NAME KEYS: an io_uring step with two workers and these keys
	cat > "$TMP/$1.lua" <<LUA
hb.plan{ name = "$1" }
hb.run{ engine = "io_uring", rw = "randread", oio = 4, workers = 2, duration = 600,
        size = "8m"$2 }
LUA
}
# run_watched NAME [numa]: run the plan; once its step measures (a second is
# stored: the workers are up and placed), print each thread's CPU list (one
# per line, sorted) and how many pages of mappings that prefer node 0 are in
# memory (with "numa": looking again until both workers' buffers are, 4 pages
# in all (oio 4 over 2 workers: 2 slots of 4 KiB each), as a loaded or
# sanitized run maps them later); then stop the run (SIGINT; 0 when it exits
# 130). The step lasts until then: a 3 s step once ended before a loaded
# machine had looked. (Each wait: 60 s at most, a hang guard.)
# Pages, not mappings: two adjacent buffers with the same policy are one
# mapping when the kernel merges them (seen under the sanitizer).
# (0 when the process is gone and its numa_maps unreadable)
prefer0_pages() {
	awk '/prefer:0/ { for (i = 1; i <= NF; i++) if ($i ~ /^anon=/) n += substr($i, 6) }
	     END { print n + 0 }' "/proc/$1/numa_maps" 2>/dev/null || echo 0
}
run_watched() {
	local steps pid i
	steps=$(sqlite3 "file:$DB?mode=ro" "SELECT count(*) FROM steps" 2>/dev/null)
	"$HB" run "$TMP/$1.lua" --db "$DB" --target "$F" -q &
	pid=$!
	for i in $(seq 600); do	# until the new step has stored a second, and the workers are up
		[ "$(sqlite3 "file:$DB?mode=ro" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id
			WHERE t.id > ${steps:-0}" 2>/dev/null)" -ge 1 ] 2>/dev/null &&
			[ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge "${THREADS:-3}" ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	cat /proc/$pid/task/*/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:\t//p' | sort > "$TMP/$1.cpus"
	prefer0_pages $pid > "$TMP/$1.numa"
	for i in $(seq 600); do
		[ "${2:-}" = numa ] && kill -0 $pid 2>/dev/null || break
		[ "$(cat "$TMP/$1.numa")" -ge 4 ] && break
		sleep 0.1
		prefer0_pages $pid > "$TMP/$1.numa.new"
		kill -0 $pid 2>/dev/null && mv "$TMP/$1.numa.new" "$TMP/$1.numa"
	done
	kill -INT $pid
	wait $pid
	[ $? = 130 ]
}
all_cpus=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
first=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)

# an explicit list: the two workers run on it, the main thread does not
plan cpus ", cpus = \"$first\""
run_watched cpus
ok $? "a step with cpus=\"$first\" runs"
is "$(grep -cx "$first" "$TMP/cpus.cpus")" 2 "both worker threads are pinned to CPU $first while they run"
is "$(q "$DB" "SELECT placement FROM steps WHERE id = 1")" "cpus=$first" "steps.placement holds the CPU list"
like "$("$HB" show 1 --db "$DB")" "placement.*
.*cpus=$first" "show prints the placement"

# numa="none": no pinning, placement none
plan none ", numa = \"none\""
run_watched none
is "$(sort -u "$TMP/none.cpus")" "$all_cpus" "numa=\"none\": threads keep the CPUs they were given"
is "$(q "$DB" "SELECT placement FROM steps WHERE id = 2")" "none" "numa=\"none\" is stored as none"

# numa="auto" (the default) with a sysfs tree where the target's device is on
# node 0 and node 0 has the CPU $first: workers pinned there, buffers prefer it
root="$TMP/sysfs"
dev=$(stat -c '%Hd:%Ld' "$TMP")
pci="sys/devices/pci0000:00/0000:00:09.0"
mkdir -p "$root/sys/dev/block" "$root/$pci/block/vdz" "$root/sys/devices/system/node/node0" \
	"$root/sys/devices/system/cpu"
echo 0 > "$root/$pci/numa_node"
echo "$first" > "$root/sys/devices/system/node/node0/cpulist"
cat /sys/devices/system/cpu/online > "$root/sys/devices/system/cpu/online"
ln -s "../../devices/pci0000:00/0000:00:09.0/block/vdz" "$root/sys/dev/block/$dev"
plan auto ""
HBATEST_SYSFS_ROOT="$root" run_watched auto numa
is "$(grep -cx "$first" "$TMP/auto.cpus")" 2 "numa=\"auto\": workers pinned to the CPUs of the device's node"
is "$(q "$DB" "SELECT placement FROM steps WHERE id = 3")" "cpus=$first node=0" \
	"the stored placement names the CPUs and the node"
is "$([ "$(cat "$TMP/auto.numa")" -ge 4 ] && echo yes)" yes \
	"each worker's buffer prefers node 0 (numa_maps: both 2-page buffers)"
plan auto_none ", numa = \"none\""
HBATEST_SYSFS_ROOT="$root" run_watched auto_none
is "$(q "$DB" "SELECT placement FROM steps WHERE id = 4")" "none" "numa=\"none\" ignores the node"

# numa="auto" narrows to the CPUs that take the device's interrupts: a
# single-queue device completes every request on them (docs/benchmarks.md, Placement).
# The same tree, node 0 holding every CPU this process may use, the device
# one hardware queue (mq/0) and two MSI vectors: 40 (a config vector, fired
# once, on another CPU) and 41 (its requests', fired 100000 times, on CPU
# $first); /proc/irq/N and /sys/kernel/irq/N as the kernel has them
allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
other_cpu=$(awk -v l="$allowed" -v o="$first" 'BEGIN { n = split(l, r, ","); for (i = 1; i <= n; i++) {
	split(r[i], ab, "-"); for (c = ab[1]; c <= (ab[2] == "" ? ab[1] : ab[2]); c++) if (c != o) { print c; exit } } }')
if [ -z "$other_cpu" ]; then
	skip "interrupt placement: needs two CPUs to narrow from"
else
	echo "$allowed" > "$root/sys/devices/system/node/node0/cpulist"
	mkdir -p "$root/$pci/msi_irqs" "$root/$pci/block/vdz/mq/0"
	vector() {	# IRQ CPU COUNT
		touch "$root/$pci/msi_irqs/$1"
		mkdir -p "$root/proc/irq/$1" "$root/sys/kernel/irq/$1"
		echo "$2" > "$root/proc/irq/$1/effective_affinity_list"
		echo "$allowed" > "$root/proc/irq/$1/smp_affinity_list"
		echo "$3" > "$root/sys/kernel/irq/$1/per_cpu_count"
	}
	vector 40 "$other_cpu" 1
	vector 41 "$first" 100000
	placement_of() {	# NAME KEYS [WORKERS]: run a step, print its stored placement
		sed "s/workers = 2/workers = ${3:-2}/" > "$TMP/$1.lua" <<LUA
hb.plan{ name = "$1" }
hb.run{ engine = "io_uring", rw = "randread", oio = 4, workers = 2, duration = 600,
        size = "8m"$2 }
LUA
		HBATEST_SYSFS_ROOT="$root" THREADS=$((${3:-2} + 1)) run_watched "$1" &&
			q "$DB" "SELECT placement FROM steps ORDER BY id DESC LIMIT 1"
	}
	is "$(placement_of irq1 "" 1)" "cpus=$first node=0 irq=41" \
		"one worker: pinned to the CPU of the device's request interrupt, stored with it"
	is "$(grep -cx "$first" "$TMP/irq1.cpus")" 1 "that worker's thread runs on CPU $first, the main thread anywhere"
	echo -1 > "$root/$pci/numa_node"	# no node known (a VM): narrowed from every CPU
	is "$(placement_of irqnonode "" 1)" "cpus=$first irq=41" "no NUMA node known: narrowed from every CPU"
	echo 0 > "$root/$pci/numa_node"
	is "$(placement_of irqnull ", engine = \"null\"" 1)" "cpus=$allowed node=0" \
		"the null engine (no device I/O, no interrupts): the node's CPUs"
	is "$(placement_of irq2 "" 2)" "cpus=$allowed node=0" \
		"two workers and one interrupt CPU: the node's CPUs, not one CPU for both"
	is "$(placement_of irqnode ", numa = \"node\"" 1)" "cpus=$allowed node=0" \
		"numa=\"node\": the node's CPUs, interrupts ignored"
	# two hardware queues (NVMe, multi-queue virtio): each CPU's requests
	# complete near it already, nothing to narrow
	mkdir "$root/$pci/block/vdz/mq/1"
	is "$(placement_of irqmq "" 1)" "cpus=$allowed node=0" "two hardware queues: the node's CPUs"
	rmdir "$root/$pci/block/vdz/mq/1"
	# a vector with no /proc/irq entry: the CPUs are not known, nothing narrowed
	vector 42 "$first" 100000
	rm -r "$root/proc/irq/42"
	is "$(placement_of irqgone "" 1)" "cpus=$allowed node=0" "a vector without /proc/irq: the node's CPUs"
	rm -r "$root/$pci/msi_irqs/42" "$root/sys/kernel/irq/42"
	# the request vector on every CPU: nothing to narrow
	echo "$allowed" > "$root/proc/irq/41/effective_affinity_list"
	is "$(placement_of irqall "" 1)" "cpus=$allowed node=0" \
		"the request interrupt served by every CPU: the node's CPUs"
	# no msi_irqs: the function's legacy irq, not the vectors of a port above it
	rm -r "$root/$pci/msi_irqs"
	echo 43 > "$root/$pci/irq"
	mkdir -p "$root/proc/irq/43" "$root/sys/devices/pci0000:00/msi_irqs"
	echo "$first" > "$root/proc/irq/43/effective_affinity_list"
	touch "$root/sys/devices/pci0000:00/msi_irqs/40"
	is "$(placement_of irqlegacy "" 1)" "cpus=$first node=0 irq=43" \
		"a legacy interrupt (the function's irq file) narrows the same way; a port's vectors above it do not count"
	# run under taskset on another CPU: the interrupt's CPU is not ours to take
	sed "s/workers = 2/workers = 1/; s/duration = 600/duration = 1/" "$TMP/irqlegacy.lua" > "$TMP/irqset.lua"
	HBATEST_SYSFS_ROOT="$root" taskset -c "$other_cpu" "$HB" run "$TMP/irqset.lua" --db "$DB" --target "$F" -q
	is "$(q "$DB" "SELECT placement FROM steps ORDER BY id DESC LIMIT 1")" "cpus=$allowed node=0" \
		"under taskset -c $other_cpu the interrupt's CPU $first is left alone"
	# per_cpu_count as the kernel writes it (kernel/irq/irqdesc.c): a count
	# per possible CPU, comma-separated. The request vector 41 now on CPU
	# $other_cpu, fired there 100000 times and 3 times on every other CPU
	# (before its affinity was set); the config vector 40 once, on CPU
	# $first. Only the sums tell them apart: the first field alone would not.
	possible=$(awk -F'[-,]' '{ print $NF + 1 }' /sys/devices/system/cpu/possible)
	percpu() {	# CPU COUNT REST: COUNT on CPU, REST on each other possible CPU
		awk -v n="$possible" -v c="$1" -v k="$2" -v r="$3" \
			'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i == c ? k : r; print "" }'
	}
	rm "$root/$pci/irq"; mkdir "$root/$pci/msi_irqs"
	vector 40 "$first" "$(percpu "$first" 1 0)"
	vector 41 "$other_cpu" "$(percpu "$other_cpu" 100000 3)"
	like "$(cat "$root/sys/kernel/irq/41/per_cpu_count")" "^([0-9]+,)+[0-9]+$" \
		"the fixture's per_cpu_count has a field per possible CPU ($possible)"
	is "$(placement_of irqpercpu "" 1)" "cpus=$other_cpu node=0 irq=41" \
		"per-CPU counts summed: pinned to the CPU of the busiest vector, not the one first in the list"
	vector 40 "$first" "$(percpu "$first" 20000 0)"
	is "$(placement_of irqpercpu2 "" 1)" "cpus=$allowed node=0" \
		"a second vector that fired a fifth as often (20000 of 100000 + 3 per CPU) is also one: nothing narrowed"
fi

# bad values: an error naming the plan, its line and the key, nothing stored
before=$(sha256sum "$DB")
# (a CPU beyond the machine's: this one's are fewer than 1023, or 99999)
present=$(cat /sys/devices/system/cpu/present)
for bad in "0-x" "1-0" "0,,1" "0," "1023" "0-99999" "0-99999,x"; do
	plan bad ", cpus = \"$bad\""
	out=$("$HB" run "$TMP/bad.lua" --db "$DB" --target "$F" -q 2>&1)
	rc=$?
	want='expected a CPU list such as "0-7,16-23"'
	case $bad in
	1023|0-99999) want="CPU ${bad#0-} does not exist \\(this machine has CPUs $present\\)" ;;
	esac
	is "$rc$([ $rc -ne 0 ] && echo ' fails')" "$rc fails" "cpus=\"$bad\" fails"
	like "$out" "bad\\.lua:2: .*cpus=\"$bad\": $want" "cpus=\"$bad\": the message names plan, line and key"
done
# a CPU present but offline: a sysfs tree where CPUs 0-1023 are present and
# only this machine's online ones are online
mkdir -p "$TMP/sysoff/sys/devices/system/cpu"
echo 0-1023 > "$TMP/sysoff/sys/devices/system/cpu/present"
online=$(cat /sys/devices/system/cpu/online)
echo "$online" > "$TMP/sysoff/sys/devices/system/cpu/online"
plan bad ", cpus = \"1022-1023\""
out=$(HBATEST_SYSFS_ROOT="$TMP/sysoff" "$HB" run "$TMP/bad.lua" --db "$DB" --target "$F" -q 2>&1)
like "$?: $out" "^1: .*bad\\.lua:2: .*cpus=\"1022-1023\": CPUs 1022-1023 are not online \\(online: $online\\)" \
	"present CPUs that are offline: named, with the online ones"
# a CPU outside the process's cpuset (the CPUs it may use): a cpuset cgroup
# holding the first CPU it may use only, and hbatest run inside it
cpuset_dir=""
for d in /sys/fs/cgroup/cpuset /sys/fs/cgroup; do
	[ -e "$d/cpuset.cpus" ] || grep -qw cpuset "$d/cgroup.subtree_control" 2>/dev/null &&
		{ cpuset_dir=$d; break; }
done
mine=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
one=${mine%%[-,]*}
other=$(awk -v l="$mine" -v o="$one" 'BEGIN { n = split(l, r, ","); for (i = 1; i <= n; i++) {
	split(r[i], ab, "-"); for (c = ab[1]; c <= (ab[2] == "" ? ab[1] : ab[2]); c++) if (c != o) { print c; exit } } }')
if [ "$(id -u)" != 0 ] || [ -z "$cpuset_dir" ] || [ -z "$other" ]; then
	skip "cpuset: needs root, a cpuset cgroup and two CPUs"
else
	cg="$cpuset_dir/hbatest-placement-$$"
	mkdir "$cg" && cleanup_hooks+=("rmdir '$cg' 2>/dev/null")
	echo "$one" > "$cg/cpuset.cpus"; cat "$cpuset_dir/cpuset.mems" > "$cg/cpuset.mems" 2>/dev/null
	plan bad ", cpus = \"$other\""
	out=$(sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" run "$3" --db "$4" --target "$5" -q' \
		sh "$cg" "$HB" "$TMP/bad.lua" "$DB" "$F" 2>&1)
	like "$?: $out" "^1: .*bad\\.lua:2: .*cpus=\"$other\": CPU $other is outside this process's cpuset \\(it may use CPUs $one\\)" \
		"a CPU outside the process's cpuset: refused in the dry pass, naming the CPUs it may use"
fi
plan badnuma ", numa = \"near\""
out=$("$HB" run "$TMP/badnuma.lua" --db "$DB" --target "$F" -q 2>&1)
like "$out" 'badnuma\.lua:2: .*numa="near": expected "auto"' "numa=\"near\" is refused with the plan line"
is "$(sha256sum "$DB")" "$before" "refused plans leave the database as it was"
done_testing
