# Helpers for the probe tests (probe_raid.t, probe_sample.t), after lib.sh:
# stand-in vendor tools on PATH and the facts of `hbatest probe` output.
# shellcheck shell=bash
TOOLS="$ROOT/tests/fixtures/tools"

# onpath NAME FIXTURE-PROGRAM...: a PATH folder holding just these stand-ins
onpath() {
	local dir="$TMP/bin-$1"; shift
	rm -rf "$dir"; mkdir -p "$dir"
	for p in "$@"; do ln -s "$TOOLS/$p" "$dir/"; done
	echo "$dir:/usr/bin:/bin"
}
# fact PROBE KEY (of the last hbatest probe output in $out)
fact() { awk -v p="$1" -v k="$2" 'substr($0, 3, 1) ~ /[a-z]/ { cur = $1; sub(/^ +[^ ]+/, "") }
	cur == p && $1 == k { sub(/^ +[^ ]+ +/, ""); print; exit }' <<< "$out"; }
# keys OUTPUT PROBE: the names of that probe's facts in OUTPUT, one a line
keys() { awk -v p="$2" 'substr($0, 3, 1) ~ /[a-z]/ { cur = $1; sub(/^ +[^ ]+/, "") }
	cur == p { print $1 }' <<< "$1"; }
