#!/usr/bin/env bash
# make mutate's stop at the first failure (docs/HACKING.md "make mutate"):
# with HBATEST_STOP_AT_FAIL set, ok in tests/lib.sh ends a shell test at its
# first "not ok" (exit 1, its EXIT trap still removing its folder); without
# it the test runs to its end; and tests/dev/mutate.sh sets it for the tests
# it runs. The last runs mutate.sh itself on a tree of its own (a Makefile
# that builds nothing, a file, one mutant of it, one test), in seconds.
. "$(dirname "$0")/lib.sh"

# a test of two failures, a mark written between them, its folder named
mkdir -p "$TMP/t/tests"
cp "$ROOT/tests/lib.sh" "$TMP/t/tests/lib.sh"
cat >"$TMP/t/tests/two.t" <<EOF
#!/usr/bin/env bash
. "\$(dirname "\$0")/lib.sh"
echo "# folder \$TMP"
ok 1 "the first failure"
touch "$TMP/after-first"
ok 1 "the second failure"
done_testing
EOF

out=$(env -u HBATEST_STOP_AT_FAIL bash "$TMP/t/tests/two.t" 2>&1)
ok $(( $? == 0 )) "without HBATEST_STOP_AT_FAIL: a failed test exits non-zero"
is "$(grep -c '^not ok' <<<"$out")" 2 "and runs to its end: both failures told"
ok $([ -e "$TMP/after-first" ]; echo $?) "past its first failure"

rm -f "$TMP/after-first"
out=$(HBATEST_STOP_AT_FAIL=1 bash "$TMP/t/tests/two.t" 2>&1)
ok $(( $? == 0 )) "with HBATEST_STOP_AT_FAIL=1: it exits non-zero"
is "$(grep -c '^not ok' <<<"$out")" 1 "at its first failure"
ok $([ ! -e "$TMP/after-first" ]; echo $?) "nothing after it ran"
like "$out" "stopped at the first failure \\(HBATEST_STOP_AT_FAIL\\)" "and says why it stopped"
folder=$(sed -n 's/^# folder //p' <<<"$out")
ok $([ -n "$folder" ] && [ ! -e "$folder" ]; echo $?) "its EXIT trap still removed its folder"

# mutate.sh on a tree of its own: a mutant that the test kills at its first
# check; with HBATEST_STOP_AT_FAIL from mutate.sh (not from this test's
# environment: make mutate runs this file with it set) the second never runs
F="$TMP/fake"
mkdir -p "$F/tests/dev"
cp "$ROOT/tests/dev/mutate.sh" "$ROOT/tests/dev/mutants.pl" "$F/tests/dev/"
cp "$ROOT/tests/lib.sh" "$F/tests/lib.sh"
printf 'all:\n\t@:\n%%:\n\t@:\n' >"$F/Makefile"
echo a >"$F/x.txt"
cat >"$F/tests/mutants.txt" <<'EOF'
mutant: x.txt says b
file: x.txt
find: a
into: b
tests: tests/x.t
EOF
cat >"$F/tests/x.t" <<EOF
#!/usr/bin/env bash
. "\$(dirname "\$0")/lib.sh"
is "\$(cat "\$ROOT/x.txt")" a "x.txt says a"
touch "$TMP/fake-after-first"
is "\$(cat "\$ROOT/x.txt")" a "x.txt still says a"
done_testing
EOF
(cd "$F" && git init -q .) || echo "# git init failed"
out=$(cd "$F" && env -u HBATEST_STOP_AT_FAIL bash tests/dev/mutate.sh --no-baseline 1 2>&1)
like "$out" "^1 +killed .*by tests/x.t" "mutate.sh: the mutant killed"
ok $([ ! -e "$TMP/fake-after-first" ]; echo $?) "mutate.sh runs its tests with HBATEST_STOP_AT_FAIL: nothing ran after the first failure"
out=$(cd "$F" && bash tests/dev/mutate.sh --no-baseline 2 2>&1)
like "$? $out" "^2 mutate.sh: no mutant 2: tests/mutants.txt has 1 to 1" "a mutant number past the list: exit 2, saying how many there are"
done_testing
