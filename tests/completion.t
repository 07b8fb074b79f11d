#!/usr/bin/env bash
# Shell completion (scripts/completion/): bash registers it; it completes
# the commands of the binary's table, each command's options, plan files,
# run labels and ids from the database --db (or $HBATEST_DB) names, saved
# queries, import formats and --format values; zsh loads the same script.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
. "$ROOT/scripts/completion/hbatest.bash"
like "$(complete -p hbatest)" "-F _hbatest hbatest" "bash: the completion registers for hbatest"

# comp WORD...: what completing the last word offers, sorted, on one line
comp() {
	COMP_WORDS=("$HB" "$@"); COMP_CWORD=${#@}
	COMPREPLY=()
	_hbatest
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

is "$(comp '')" "export help import list merge plugins probe report run show sql version" \
	"the commands, from hbatest help"
is "$(comp re)" "report" "a command's start"
is "$(comp --)" "--db --help --plugin-path --version" "options before a command"
out=$(comp run --)
for o in --label --target --set --dry-run --destroy-data --allow-exec --lua-memory --max-steps --resume --force --db; do
	[[ " $out " == *" $o "* ]] || echo "missing $o"
done > missing
is "$(cat missing)" "" "run's options, from hbatest run --help ($out)"
rm missing
is "$(comp report --no)" "--no-charts" "an option's start"
is "$(comp import --)" "--db --help --label --plugin-path" \
	"import's options: its own and the common ones, not fio's --output-format its help names"
is "$(comp sql --fi)" "--file" "sql --file, from its synopsis"
is "$(comp --db x.db report --bas)" "--baseline" "after an option before the command"

mkdir plans.d; : > a.lua; : > b.txt
is "$(comp run '')" "a.lua plans.d" "run: plan files and folders, nothing else"
is "$(comp sql --format '')" "csv json table tsv" "sql --format's values"
is "$(comp report --format s)" "svg svg,pdf" "report --format's values"
is "$(comp report r --units '')" "MB MiB" "report --units's values"
is "$(comp report r --at '')" "" "report --at takes AXIS=VALUE: no file names"
is "$(comp import '')" "fio hbatest iometer" "import: the formats"
is "$(comp import fio '')" "a.lua b.txt plans.d" "import FORMAT: files"
is "$(comp run x.lua --status-interval '')" "" "run --status-interval takes seconds: no file names offered"
is "$(comp run x.lua --max-steps '')" "" "run --max-steps takes a number: no file names offered"
out=$(comp sql '')
like "$out" "(^| )oio-sweep( |$)" "sql: the saved queries ($out)"

cat > q.lua <<'LUA'
hb.plan{ name = "c", defaults = { engine = "null", duration = 1 } }
hb.targets = { "a" }
hb.run{ rw = "randread", oio = 1 }
LUA
"$HB" run q.lua --db runs.db --label night-one -q; ok $? "a run labelled night-one"
"$HB" run q.lua --db runs.db -q; ok $? "a run without a label"
is "$(comp --db runs.db show '')" "1 2 night-one" "show: the labels and ids of the --db database"
is "$(comp show --db=runs.db n)" "night-one" "--db=FILE after the command, and a label's start"
is "$(HBATEST_DB=runs.db comp report --baseline '')" "1 2 night-one" "report --baseline: runs of \$HBATEST_DB"
is "$(comp show '')" "" "no database: nothing offered, no error"

if command -v zsh >/dev/null; then
	out=$(zsh -fc 'autoload -U compinit && compinit -u -D; source "$1"; print -r -- "${_comps[hbatest]}"' \
		zsh "$ROOT/scripts/completion/_hbatest" 2>&1)
	is "$out" "_bash_complete -o filenames -F _hbatest" "zsh: _hbatest registers the same completion"
else
	ok 1 "# SKIP zsh is not installed"
fi
done_testing
