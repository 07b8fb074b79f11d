# Helpers of the calibration tests (tests/simcal_*.t), after lib.sh: each
# holds a review's figures against the simulated card's.
# shellcheck shell=bash

# todo OK DESCRIPTION REASON: a known failure, TAP TODO (an unexpected pass says so)
todo() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2 # TODO $3"; else echo "not ok $tap_n - $2 # TODO $3"; fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# within RATIO TOLERANCE: RATIO is 1 within TOLERANCE (a share)
within() { awk -v v="$1" -v t="$2" 'BEGIN { exit !(v >= 1 - t && v <= 1 + t) }'; }

# figure NAME MODEL REVIEW UNIT TOLERANCE WHAT REST: one line of a figure table,
# a test (TODO with the reason when REST holds "TODO reason"); counts the
# figures in n, those within 5 % in n5 and within 15 % in n15.
n=0 n5=0 n15=0
figure() {
	local name=$1 r rc desc
	shift
	r=$(ratio "$1" "$2")
	n=$((n + 1))
	within "$r" 0.05 && n5=$((n5 + 1))
	within "$r" 0.15 && n15=$((n15 + 1))
	within "$r" "$4"
	rc=$?
	desc="$name: $(printf '%.3f' "$1") $3, review $2 (ratio $r, within $(awk -v t="$4" 'BEGIN { print t * 100 }') %; $5 ${6%%TODO*})"
	case $6 in *TODO*) todo "$rc" "$desc" "${6#*TODO }" ;; *) ok "$rc" "$desc" ;; esac
}
