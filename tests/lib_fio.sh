# Helpers for the fio engine's tests (fio_engine.t, fio_hosts_report.t),
# after lib.sh: a skip without fio, and fio --server processes on loopback
# addresses standing in for initiators, started and killed here by pid.
# shellcheck shell=bash
# without fio: the test is skipped whole
if ! command -v fio >/dev/null; then
	skip "fio is not installed"
	done_testing
	exit
fi
servers=()
# start_server ADDR PORT: a fio --server, its pid in servers[]; 0 once it listens
start_server() {
	fio --server="ip:$1,$2" >"$TMP/server-$2.log" 2>&1 &
	servers+=($!)
	for _ in $(seq 100); do
		(exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# stop_server PID: it and the job processes it forked, by pid
stop_server() {
	local p
	for p in $(tree_pids "$1" ""); do kill -KILL "$p" 2>/dev/null; done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
cleanup_hooks+=('for s in "${servers[@]}"; do stop_server "$s"; done')
# run_killing PLAN DB SECS: hbatest runs PLAN into DB (stderr into $TMP/err)
# while the second server, SECS s after it took a job, is killed; hbatest's
# exit status
run_killing() {
	local pid
	"$HB" run "$1" --db "$2" -q 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 100); do [ -n "$(tree_pids "${servers[1]}" "")" ] && break; sleep 0.1; done
	sleep "$3"
	stop_server "${servers[1]}"
	wait $pid
}
