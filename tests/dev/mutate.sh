#!/usr/bin/env bash
# make mutate: plausible bugs planted one at a time in a copy of the tree; the
# tests named for each must fail ("killed"). The mutants are data:
# tests/mutants.txt (its header says the format; make lint checks that each
# find string occurs exactly once in its file). Exits non-zero when a mutant
# survives, does not build, or its string no longer matches.
#   tests/dev/mutate.sh [--list] [--no-baseline] [N...]   (N: mutant numbers)
set -u

# MUT_*[i]: mutant i+1 of tests/mutants.txt, read by tests/dev/mutants.pl
MUT_FILE=() MUT_PAT=() MUT_REP=() MUT_TESTS=() MUT_WHAT=()
load_mutants() {
	local f p r t w
	while IFS= read -r -d '' f && IFS= read -r -d '' p && IFS= read -r -d '' r &&
	      IFS= read -r -d '' t && IFS= read -r -d '' w; do
		MUT_FILE+=("$f") MUT_PAT+=("$p") MUT_REP+=("$r") MUT_TESTS+=("$t") MUT_WHAT+=("$w")
	done < <(perl "$1/tests/dev/mutants.pl" "$1/tests/mutants.txt" || echo "mutate.sh: tests/mutants.txt is not readable" >&2)
	[ ${#MUT_FILE[@]} -gt 0 ] || { echo "mutate.sh: no mutant in $1/tests/mutants.txt" >&2; exit 2; }
}

# AREAS: the parts of hbatest a kill ratio is printed for (so that a weakly
# tested one shows), in the order printed; area_of FILE: a mutant's area, by
# its file's path (the first pattern that matches)
AREAS="reports sql import export merge guard runner sim engines probes store plan measure base commands tooling others"
area_of() {
	case $1 in
	reports/*|core/report/*|core/cmd/report*|core/store/report.c|scripts/review.lua) echo reports ;;
	core/cmd/sql.c|core/store/query.c|db/queries/*) echo sql ;;
	core/import/*|core/cmd/import.c|core/base/csvlines*) echo import ;;
	core/cmd/export*|core/store/export*) echo export ;;
	core/store/merge*|core/cmd/merge.c) echo merge ;;
	core/measure/guard*|core/measure/target_id*) echo guard ;;
	core/run/*|core/measure/step*|core/measure/worker*|core/cmd/run.c) echo runner ;;
	plugins/engines/sim*|scripts/sim_presets.lua) echo sim ;;
	plugins/engines/*) echo engines ;;
	plugins/probes/*|core/hbatest/tool.h|core/hbatest/sysfs.h|core/measure/probe*|core/cmd/probe.c) echo probes ;;
	core/store/*|db/schema.sql|db/migrations/*) echo store ;;
	core/plan/*|scripts/*.lua) echo plan ;;
	core/measure/*) echo measure ;;
	core/base/*) echo base ;;
	core/cmd/*|docs/man/*|scripts/completion/*) echo commands ;;
	Makefile|tests/dev/*) echo tooling ;;
	*) echo others ;;
	esac
}

# (one function, read whole before it runs: editing this file during a run is safe)
main() {
	ROOT=$(cd "$(dirname "$0")/../.." && pwd)
	load_mutants "$ROOT"
	LIMIT=${HBATEST_MUTATE_TIMEOUT:-600}	# s a test file may take before it counts as failed
	list=0 baseline=1 pick=()
	for a in "$@"; do
		case $a in
		--list) list=1 ;;
		--no-baseline) baseline=0 ;;
		[0-9]*) pick+=("$a") ;;
		*) echo "usage: mutate.sh [--list] [--no-baseline] [N...]" >&2; exit 2 ;;
		esac
	done
	n=${#MUT_FILE[@]}
	[ ${#pick[@]} -gt 0 ] || pick=($(seq "$n"))
	for i in "${pick[@]}"; do
		case $i in *[!0-9]*) ;; *) [ "$i" -ge 1 ] && [ "$i" -le "$n" ] && continue ;; esac
		echo "mutate.sh: no mutant $i: tests/mutants.txt has 1 to $n (--list lists them)" >&2
		exit 2
	done
	if [ $list = 1 ]; then
		for i in "${pick[@]}"; do
			printf '%2d  %-28s %s  [%s]\n' "$i" "${MUT_FILE[i-1]}" "${MUT_WHAT[i-1]}" "${MUT_TESTS[i-1]}"
		done
		exit 0
	fi

	start=$SECONDS
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/hbatest-mutate.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	# the working tree as it is (uncommitted edits and new files included), never touched
	(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) |
		(cd "$ROOT" && tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$WORK"

	unit_target() { echo "build/tests/${1#unit/}.t"; }
	# build: the binary, the plugins, the fixtures and the C tests the mutant names
	build() {
		local targets=(all) t
		for t in $1; do [ "${t#unit/}" != "$t" ] && targets+=("$(unit_target "$t")"); done
		for t in "$WORK"/tests/fixtures/plugins/*.c; do
			targets+=("build/tests/plugins/$(basename "${t%.c}").so")
		done
		make -C "$WORK" -j2 "${targets[@]}" >"$WORK/build.log" 2>&1
	}
	# run_tests TESTS: 0 when all pass; else 1 and the failing one in $failed
	# (HBATEST_STOP_AT_FAIL: a shell test exits at its first "not ok", tests/lib.sh)
	run_tests() {
		local t f
		failed=
		for t in $1; do
			f=$t
			[ "${t#unit/}" != "$t" ] && f=$(unit_target "$t")
			(cd "$WORK" && HBATEST_STOP_AT_FAIL=1 HBATEST_TEST_TIMEOUT=$LIMIT timeout -k 10 $((LIMIT + 30)) \
				prove "$f" >"$WORK/prove.log" 2>&1) || { failed=$t; return 1; }
		done
		return 0
	}
	# count FILE PATTERN: how often PATTERN occurs in FILE, as an exact string
	count() { PAT=$2 perl -0777 -ne 'my $p = $ENV{PAT}; my $n = () = /\Q$p\E/g; print $n' "$1"; }
	apply() { PAT=$2 REP=$3 perl -0777 -i -pe 'my ($p, $r) = ($ENV{PAT}, $ENV{REP}); s/\Q$p\E/$r/' "$1"; }

	bad=0
	for i in "${pick[@]}"; do	# every pattern first: a stale one fails before any build
		c=$(count "$WORK/${MUT_FILE[i-1]}" "${MUT_PAT[i-1]}" 2>/dev/null)
		if [ "$c" != 1 ]; then
			echo "mutant $i: its pattern occurs ${c:-0} times in ${MUT_FILE[i-1]} (wanted once): update the list" >&2
			bad=1
		fi
	done
	[ $bad = 0 ] || exit 1

	if [ $baseline = 1 ]; then
		all_tests=$(for i in "${pick[@]}"; do echo "${MUT_TESTS[i-1]}"; done | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
		echo "baseline: the unmutated tree passes $all_tests"
		if ! build "$all_tests"; then tail -20 "$WORK/build.log"; echo "baseline: does not build" >&2; exit 1; fi
		if ! run_tests "$all_tests"; then
			tail -30 "$WORK/prove.log"
			echo "baseline: $failed fails without any mutant: fix that first" >&2
			exit 1
		fi
		echo "baseline: passes ($((SECONDS - start)) s)"
	fi

	killed=0 survived=0 broken=0
	declare -A in_area=() killed_in=()
	printf '%-3s %-9s %5s  %-28s %s\n' '#' result secs file mutant
	for i in "${pick[@]}"; do
		f="$WORK/${MUT_FILE[i-1]}" t0=$SECONDS
		cp -p "$f" "$WORK/orig"
		apply "$f" "${MUT_PAT[i-1]}" "${MUT_REP[i-1]}"
		if ! build "${MUT_TESTS[i-1]}"; then
			res="BROKEN" by="does not build: $(grep -m1 -E 'error' "$WORK/build.log")"
			broken=$((broken + 1))
		elif run_tests "${MUT_TESTS[i-1]}"; then
			res="SURVIVED" by="${MUT_TESTS[i-1]} all pass"
			survived=$((survived + 1))
		else
			res="killed" by="by $failed"
			killed=$((killed + 1))
		fi
		cp "$WORK/orig" "$f" && touch "$f"	# restored, and newer than its objects
		a=$(area_of "${MUT_FILE[i-1]}")
		in_area[$a]=$((${in_area[$a]:-0} + 1))
		[ "$res" = killed ] && killed_in[$a]=$((${killed_in[$a]:-0} + 1))
		printf '%-3s %-9s %5s  %-28s %s (%s)\n' "$i" "$res" $((SECONDS - t0)) "${MUT_FILE[i-1]}" \
			"${MUT_WHAT[i-1]}" "$by"
	done
	for a in $AREAS; do	# the kill ratio per area (survived and broken count as not killed)
		[ -n "${in_area[$a]:-}" ] || continue
		printf 'area %-8s killed %3d of %3d (%3d %%)\n' "$a" "${killed_in[$a]:-0}" "${in_area[$a]}" \
			$((100 * ${killed_in[$a]:-0} / ${in_area[$a]}))
	done
	echo "mutants: ${#pick[@]}, killed $killed, survived $survived, broken $broken; total $((SECONDS - start)) s"
	[ $survived = 0 ] && [ $broken = 0 ]
}
main "$@"; exit $?
