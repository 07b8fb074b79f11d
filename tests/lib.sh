# Helpers for the shell tests: TAP output, a scratch folder, the binary.
# shellcheck shell=bash
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HB="$ROOT/hbatest"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hbatest-test.XXXXXX")
export HBATEST_DB="$TMP/default.db"
tap_n=0
tap_failed=0
cleanup_hooks=()

on_exit() {
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

# check_invariant DB STEP_ID: the non-ramp samples add up to the step's totals
check_invariant() {
	local db=$1 id=$2
	q "$db" "SELECT (SELECT sum(read_ops) FROM samples WHERE step_id=$id AND ramp=0) = read_ops
	    AND (SELECT sum(write_ops) FROM samples WHERE step_id=$id AND ramp=0) = write_ops
	    AND (SELECT sum(read_bytes) FROM samples WHERE step_id=$id AND ramp=0) = read_bytes
	    AND (SELECT sum(write_bytes) FROM samples WHERE step_id=$id AND ramp=0) = write_bytes
	    AND (SELECT sum(errors) FROM samples WHERE step_id=$id AND ramp=0) = errors
	    AND (SELECT count(*) FROM samples WHERE step_id=$id AND ramp=0) = window_s
	    FROM steps WHERE id=$id"
}

# sanitized: whether ./hbatest is a SANITIZE=1 build. ASan reserves terabytes
# of address space, so a test that lowers `ulimit -v` must skip then.
sanitized() { ldd "$HB" 2>/dev/null | grep -q libasan; }
