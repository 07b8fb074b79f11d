# Helpers for the shell tests: TAP output, a scratch folder, the binary.
# shellcheck shell=bash
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HB="$ROOT/hbatest"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hbatest-test.XXXXXX")
export HBATEST_DB="$TMP/default.db"
tap_n=0
tap_failed=0
cleanup_hooks=()

# A time box for the whole test file: a hung `hbatest` fails the test instead
# of stalling `make check`. Generous (minutes, not a timing threshold); set
# HBATEST_TEST_TIMEOUT (seconds) to change it, 0 for none. When it fires it
# prints a failure, then kills this test's processes (ours only: the tree
# under this shell) and the shell itself.
tree_pids() {
	local c
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		[ "$c" = "$2" ] && continue
		tree_pids "$c" "$2"
		echo "$c"
	done
}
watchdog() {
	local top=$1 limit=$2 end=$((SECONDS + $2)) me p
	me=$BASHPID
	while [ $SECONDS -lt $end ]; do sleep 1 </dev/null >/dev/null 2>&1; done
	echo "not ok - timed out: $(basename "$0") ran over ${limit} s (HBATEST_TEST_TIMEOUT)"
	for p in $(tree_pids "$top" "$me"); do kill -KILL "$p" 2>/dev/null; done
	kill -TERM "$top" 2>/dev/null
}
watchdog_pid=
if [ "${HBATEST_TEST_TIMEOUT:-900}" -gt 0 ]; then
	watchdog $$ "${HBATEST_TEST_TIMEOUT:-900}" &
	watchdog_pid=$!
fi

on_exit() {
	[ -n "$watchdog_pid" ] && kill "$watchdog_pid" 2>/dev/null
	for h in "${cleanup_hooks[@]}"; do eval "$h"; done
	rm -rf "$TMP"
}
trap on_exit EXIT

# ok CONDITION_EXIT_CODE DESCRIPTION
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
		# make mutate needs only a test's first failure: stop here (the
		# EXIT trap still cleans up: loop devices, servers, the folder)
		if [ -n "${HBATEST_STOP_AT_FAIL:-}" ]; then
			echo "# stopped at the first failure (HBATEST_STOP_AT_FAIL)"
			exit 1
		fi
	fi
}

# is GOT WANT DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got '$1', want '$2'"; fi
}

# like TEXT PATTERN DESCRIPTION (grep -E)
like() {
	if printf '%s' "$1" | grep -Eq -- "$2"; then ok 0 "$3"; else
		ok 1 "$3"; printf '%s\n' "$1" | sed 's/^/#   /' | head -20; echo "#   wanted /$2/"; fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

q() { sqlite3 "$1" "$2"; }
# stdin without the host-bound warnings (docs/measurement.md): a null step
# always gets one, any step on a host whose CPUs were 95 % busy may, so a
# test that wants "nothing said" on a real engine leaves them out
unbound() { grep -v ': host-bound: ' || true; }

# bs_bytes TEXT: "4k" -> 4096, "1m", "512"; empty for a mix ("4k:60,64k:40")
bs_bytes() {
	case $1 in
	*[!0-9kmgKMG]*) ;;
	*[kK]) echo $((${1%?} << 10)) ;;
	*[mM]) echo $((${1%?} << 20)) ;;
	*[gG]) echo $((${1%?} << 30)) ;;
	*) echo "$1" ;;
	esac
}

# check_invariant DB STEP_ID: prints 1 when the step's totals agree with
# three sources: the non-ramp samples they were summed from (the window_s
# is their secs summed: each 1, but the last, which may be part of a second;
# the IOPS is the ops over it); sources the core
# fills apart from the samples: the stored histograms (one count per I/O, by
# direction) and the per-target counters of step_targets (by direction);
# and for a single block size, bytes = operations x that size.
check_invariant() {
	local db=$1 id=$2 bs hcount tsum
	bs=$(bs_bytes "$(q "$db" "SELECT bs FROM steps WHERE id=$id")")
	hcount="(SELECT COALESCE(sum(json_extract(e.value, '\$[1]')), 0) FROM histograms h, json_each(h.counts) e
	         WHERE h.step_id=$id AND h.dir="
	tsum="(SELECT COALESCE(sum(x), 0) FROM (SELECT"
	q "$db" "SELECT (SELECT sum(read_ops) FROM samples WHERE step_id=$id AND ramp=0) = read_ops
	    AND (SELECT sum(write_ops) FROM samples WHERE step_id=$id AND ramp=0) = write_ops
	    AND (SELECT sum(read_bytes) FROM samples WHERE step_id=$id AND ramp=0) = read_bytes
	    AND (SELECT sum(write_bytes) FROM samples WHERE step_id=$id AND ramp=0) = write_bytes
	    AND (SELECT sum(errors) FROM samples WHERE step_id=$id AND ramp=0) = errors
	    AND abs((SELECT COALESCE(sum(secs), 0) FROM samples WHERE step_id=$id AND ramp=0) - window_s) < 1e-9
	    AND (SELECT count(*) FROM samples WHERE step_id=$id AND (secs <= 0 OR secs > 1
	         OR (secs < 1 AND t < (SELECT max(t) FROM samples WHERE step_id=$id)))) = 0
	    AND abs(COALESCE(iops * window_s, 0) - (read_ops + write_ops)) <= 1e-9 * (read_ops + write_ops)
	    AND $hcount'read') = read_ops AND $hcount'write') = write_ops
	    AND (SELECT count(*) FROM step_targets WHERE step_id=$id) > 0
	    AND $tsum read_ops AS x FROM step_targets WHERE step_id=$id)) = read_ops
	    AND $tsum write_ops AS x FROM step_targets WHERE step_id=$id)) = write_ops
	    AND $tsum read_bytes AS x FROM step_targets WHERE step_id=$id)) = read_bytes
	    AND $tsum write_bytes AS x FROM step_targets WHERE step_id=$id)) = write_bytes
	    AND $tsum errors AS x FROM step_targets WHERE step_id=$id)) = errors
	    AND ${bs:+read_bytes = $bs * read_ops AND write_bytes = $bs * write_ops AND} 1
	    FROM steps WHERE id=$id"
}

# wait_count DB SQL N: wait until the count SQL gives reaches N (at most
# 120 s: a guard against hanging, not a measurement; 30 s is short for a
# run to reach a later step on a loaded machine)
wait_count() {
	local n
	for _ in $(seq 1200); do
		n=$(q "$1" "$2" 2>/dev/null)
		[ "${n:-0}" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}

# samples_of_seq DB SEQ N: until step SEQ of the database's runs has stored N seconds
samples_of_seq() {
	wait_count "$1" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.seq = $2" "$3"
}

# is_root: whether the tests run as root (loop devices, mounts)
is_root() { [ "$(id -u)" = 0 ]; }

# mkloop VAR FILE [losetup options]: attach FILE to a loop device, put its
# path in VAR and detach it at exit (before earlier hooks: a mount on it goes
# first). As root a loop device that cannot be made is a failure, never a
# skip: it prints "not ok" and returns 1.
# (Its local has a name no caller uses: with "local dev", `mkloop dev FILE`
# set only the local, and the caller's empty $dev once sent a dd to /tmp.)
mkloop() {
	local mkloop_dev

	mkloop_dev=$(losetup --find --show "${@:3}" "$2")
	if [ -z "$mkloop_dev" ]; then
		ok 1 "as root, a loop device can be made on ${2#"$TMP"/} (losetup --find --show)"
		return 1
	fi
	cleanup_hooks=("losetup -d '$mkloop_dev'" "${cleanup_hooks[@]}")
	printf -v "$1" '%s' "$mkloop_dev"
	[ -b "${!1}" ] || { ok 1 "mkloop: \$$1 is not the loop device made (${!1:-empty})"; return 1; }
}

# sanitized: whether ./hbatest is a SANITIZE=1 build. ASan reserves terabytes
# of address space, so a test that lowers `ulimit -v` must skip then.
sanitized() { ldd "$HB" 2>/dev/null | grep -q libasan; }

# traced ARGS...: strace ARGS..., with LeakSanitizer off in a sanitized build
# (it cannot work under ptrace and fails the process); ASan and UBSan stay on
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"; }

# lock_db DB: another process takes DB's write lock and keeps it until
# unlock_db (0 once it holds it; 1 if it has not after 120 s)
lock_db() {
	rm -f "$TMP/lock.fifo" "$TMP/lock.out"
	mkfifo "$TMP/lock.fifo"
	sqlite3 "$1" < "$TMP/lock.fifo" > "$TMP/lock.out" 2>&1 &
	lock_pid=$!
	cleanup_hooks+=("kill $lock_pid 2>/dev/null")
	exec 7> "$TMP/lock.fifo"
	echo ".timeout 20000" >&7
	echo "BEGIN IMMEDIATE; SELECT 'locked';" >&7
	for _ in $(seq 1200); do
		grep -q '^locked' "$TMP/lock.out" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

unlock_db() {
	echo "COMMIT;" >&7
	exec 7>&-
	wait "$lock_pid"
}

# raid5_checks DB: plans/raid5.lua's short rehearsal (--set size=64m
# --set seconds=1 --set ramp=0 --set precondition=1) as stored in DB, checked
# alike where it runs on real I/O: tests/plans.t (a file) or tests/loop.t (a
# loop device, as root)
raid5_checks() {
	is "$(q "$1" "SELECT status || ':' || (SELECT count(*) FROM steps WHERE status = 'done') FROM runs")" "done:96" \
		"the run and its 96 steps are done"
	is "$(q "$1" "SELECT count(*) FROM oio_sweep")" 72 "72 OIO sweep points: 4k/8k random read/write, 128k read/write, 3 profiles, 8 each"
	is "$(q "$1" "SELECT count(*) FROM write_mix_sweep")" 22 "22 write-mix points (4k and 8k, 0..100 by 10)"
	is "$(q "$1" "SELECT write_bytes FROM steps WHERE seq = 1")" 134217728 "the fill wrote 2 x 64 MiB"
	is "$(q "$1" "SELECT count(*) FROM steps s WHERE kind != 'exec' AND (SELECT count(*) FROM samples WHERE step_id = s.id) = 0")" 0 \
		"every step stored its seconds"
}
