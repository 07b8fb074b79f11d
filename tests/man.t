#!/usr/bin/env bash
# The man pages cannot drift from the code: every command of core/cmd/main.c's
# table, every long option of core/cmd/*.c and every HBATEST_ variable the
# code reads is in hbatest(1); every hb function and step key is in
# hbatest-plan(7); each option the page describes exists; both render
# without a warning.
. "$(dirname "$0")/lib.sh"

MAN1=$ROOT/docs/man/hbatest.1
MAN7=$ROOT/docs/man/hbatest-plan.7

# described PAGE: the words the page describes, one per line: each line that
# follows a .TP (the term of a tagged paragraph), its font escapes and
# quotes dropped, \- read as -, split at spaces and commas
described() {
	perl -ne 'if ($tp) { s/\\f[BIRP]//g; s/\\-/-/g; s/^\.[BIR]+ //; tr/",|[]()/       /;
		print "$_\n" for split " "; $tp = 0 } $tp = 1 if /^\.TP/' "$1" | sort -u
}
words1=$(described "$MAN1")
words7=$(described "$MAN7")
missing() {	# missing WORDS NAME...: the names not among the words
	local w=$1; shift
	for n in "$@"; do grep -qxF -- "$n" <<<"$w" || printf '%s ' "$n"; done
}

cmds=$(perl -ne 'print "$1\n" if /^\s*\{ "([^"]+)", cmd_/' "$ROOT/core/cmd/main.c")
[ "$(wc -l <<<"$cmds")" -ge 10 ]; ok $? "main.c's command table read ($(echo $cmds))"
is "$(missing "$words1" $cmds)" "" "hbatest(1) describes every command of the table"

opts=$(cat "$ROOT"/core/cmd/*.c "$ROOT"/core/cmd/cmd.h |
	perl -ne 'print "--$1\n" while /\{ "([a-z][a-z-]*)", (?:no|required|optional)_argument/g' | sort -u)
[ "$(wc -l <<<"$opts")" -ge 20 ]; ok $? "the commands' long options read ($(wc -l <<<"$opts") of them)"
is "$(missing "$words1" $opts)" "" "hbatest(1) describes every long option"
extra=$(grep -x -- '--[a-z-]*' <<<"$words1" | grep -vxF -f <(echo "$opts"; echo --help; echo --version))
is "$extra" "" "every option hbatest(1) describes exists"

envs=$(grep -rhoE 'getenv\("HBATEST_[A-Z_]+"\)|"HBATEST_[A-Z_]+"' "$ROOT/core" "$ROOT/plugins" |
	grep -oE 'HBATEST_[A-Z_]+' | sort -u)
[ -n "$envs" ]; ok $? "the variables the code reads ($(echo $envs))"
is "$(missing "$words1" $envs)" "" "hbatest(1) describes every HBATEST_ variable"

funcs=$( (perl -ne 'print "hb.$1\n" if /^\s*\{ "([a-z][a-z_]*)", l_/' "$ROOT/core/plan/api.c"
	  perl -ne 'print "hb.$1\n" if /^function hb\.([a-z_]+)\(/' "$ROOT/scripts/hbatest.lua") | sort -u)
[ "$(wc -l <<<"$funcs")" -ge 10 ]; ok $? "the hb functions read ($(echo $funcs))"
fwords=$(sed 's/[{(].*//' <<<"$words7")
is "$(missing "$fwords" $funcs)" "" "hbatest-plan(7) describes every hb function"
keys=$(perl -0ne 'if (/step_keys\[\] = \{(.*?)NULL/s) { my $l = $1; print "$1\n" while $l =~ /"([a-z_]+)"/g }' \
	"$ROOT/core/measure/step_keys.c")
[ "$(wc -l <<<"$keys")" -ge 20 ]; ok $? "the step keys read ($(wc -l <<<"$keys") of them)"
is "$(missing "$words7" $keys)" "" "hbatest-plan(7) describes every step key"

for page in "$MAN1" "$MAN7"; do
	out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=all -l "$page" 2>&1 >/dev/null)
	is "$out" "" "$(basename "$page") renders without a warning"
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^SEE ALSO'
	ok $? "$(basename "$page") renders: its SEE ALSO heading is there"
done
done_testing
