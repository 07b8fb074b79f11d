#!/usr/bin/env bash
# The guard's "inside hbatest's tree" is a folder rule, not a name prefix: with
# the binary in OPT/hbatest, a target in OPT/hbatest or any folder below it is
# refused, and one in a folder that only starts with the same name
# (OPT/hbatest-scratch, OPT/hbatest2, OPT/hbatest.old) is allowed. A copy of
# the binary in a scratch tree stands for an installation (--dry-run: the
# guard's verdict without any I/O).
. "$(dirname "$0")/lib.sh"

OPT="$TMP/opt"
mkdir -p "$OPT/hbatest/sub" "$OPT/hbatest-scratch" "$OPT/hbatest2" "$OPT/hbatest.old" "$OPT/hbates"
cp "$HB" "$OPT/hbatest/hbatest"
export HBATEST_SCRIPTS="$ROOT/scripts"
echo 'hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1, size = "1m" }' > "$TMP/w.lua"
dry() { "$OPT/hbatest/hbatest" run "$TMP/w.lua" --db "$TMP/g.db" --plugin-path "$ROOT/plugins" \
	--target "$1" --dry-run >"$TMP/out" 2>"$TMP/err"; }

# TARGET|VERDICT: allowed (exit 0, the plan listed) or refused (exit 1, named)
while IFS='|' read -r t verdict; do
	dry "$OPT/$t"; rc=$?
	if [ "$verdict" = allowed ]; then
		is "$rc $(cat "$TMP/err")" "0 " "opt/$t: allowed (only its name starts like the tree's)"
	else
		like "$rc $(cat "$TMP/err")" "^1 .*refusing to write to '$OPT/$t': it is inside hbatest's own files \\('$OPT/hbatest'\\)" \
			"opt/$t: refused, inside hbatest's tree"
	fi
done <<'EOF_TABLE'
hbatest-scratch/x.dat|allowed
hbatest2/x.dat|allowed
hbatest.old/x.dat|allowed
hbates/x.dat|allowed
x.dat|allowed
hbatest/x.dat|refused
hbatest/sub/x.dat|refused
hbatest-scratch/../hbatest/x.dat|refused
EOF_TABLE
[ -z "$(find "$OPT" -name x.dat)" ]; ok $? "the dry pass laid out no file"

done_testing
