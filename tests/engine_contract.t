#!/usr/bin/env bash
# An engine that breaks plugin.h's contract (tests/fixtures/plugins/rogue.c):
# a count past what submit() was given or reap() was asked for, a value that
# is neither a count nor -errno, a completion of a request it never got or
# twice, more bytes than asked. The step fails saying what the engine did,
# instead of a crash or counters the engine made up.
. "$(dirname "$0")/lib.sh"

DB="$TMP/rogue.db"
PP="$ROOT/build/tests/plugins"
[ -f "$PP/rogue.so" ]; ok $? "the fixture engine is built ($PP/rogue.so)"

breaks() {	# BREAKS: runs a 1 s step of rogue that breaks so; the exit status
	cat > "$TMP/$1.lua" <<LUA
hb.run{ name = "$1", engine = "rogue", rogue = { breaks = "$1" }, targets = "v",
        rw = "randread", bs = "4k", oio = 4, duration = 1 }
LUA
	timeout -k 5 60 "$HB" run "$TMP/$1.lua" --db "$DB" --plugin-path "$PP" -q \
		2>"$TMP/stderr"
}

breaks none; is $? 0 "the fixture keeping the contract runs"

check() {	# BREAKS MESSAGE
	local rc
	breaks "$1"; rc=$?
	is "$rc" 1 "$1: the step fails, no crash (exit $rc)"
	like "$(cat "$TMP/stderr")" "engine 'rogue' broke the plugin ABI in worker 0: $2" \
		"$1: the error says what the engine did"
	is "$(q "$DB" "SELECT status || ' ' || read_ops FROM steps WHERE name = '$1'")" \
		"failed 0" "$1: the step is stored failed, nothing the engine made up counted"
}

check submit_more 'submit\(\) returned 9, for at most 4'
check submit_garbage 'submit\(\) returned -100000, neither a count nor -errno'
check reap_more 'reap\(\) returned 7, for at most 4'
check reap_foreign 'reap\(\) returned a request it was not given, or twice'
check reap_twice 'reap\(\) returned a request it was not given, or twice'
check reap_bytes 'a request of 4096 bytes completed with 8192'

done_testing
