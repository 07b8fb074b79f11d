# bash completion for hbatest: commands, each command's options, plan files,
# run labels and ids from the database, saved query names, import formats.
# It asks hbatest itself (help, COMMAND --help's usage lines, sql), so it follows the
# binary it completes and never drifts from its command table.
# Installed as PREFIX/share/bash-completion/completions/hbatest; by hand:
#   . scripts/completion/hbatest.bash
# zsh: scripts/completion/_hbatest loads this through bashcompinit.

# the database the command line names (--db FILE or --db=FILE), else $HBATEST_DB
_hbatest_db()
{
	local i
	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		case ${COMP_WORDS[i]} in
		--db) printf '%s\n' "${COMP_WORDS[i + 1]}"; return ;;
		--db=*) printf '%s\n' "${COMP_WORDS[i]#--db=}"; return ;;
		esac
	done
	printf '%s\n' "${HBATEST_DB:-hbatest.db}"
}

# the runs of that database: labels, then ids (nothing when it does not exist)
_hbatest_runs()
{
	local hb=$1 db
	db=$(_hbatest_db)
	[ -f "$db" ] || return 0
	"$hb" sql "SELECT label FROM runs WHERE label IS NOT NULL AND label <> '' UNION ALL SELECT id FROM runs" \
		--format tsv --db "$db" 2>/dev/null | tail -n +2
}

_hbatest()
{
	local hb=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=
	local cmd= i words
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--db | --plugin-path) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	COMPREPLY=()
	local IFS=$'\n'

	case $prev in
	--db | --out | --template | -f | --file)
		COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--plugin-path)
		COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--target | --destroy-data)
		COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--baseline | --resume)
		COMPREPLY=($(compgen -W "$(_hbatest_runs "$hb")" -- "$cur")); return ;;
	--units)
		COMPREPLY=($(compgen -W "MB MiB" -- "$cur")); return ;;
	--format)
		case $cmd in
		report) words="svg png pdf svg,pdf png,pdf" ;;
		sql) words="table csv tsv json" ;;
		*) words="csv json" ;;
		esac
		IFS=' ' COMPREPLY=($(compgen -W "$words" -- "$cur")); return ;;
	--label | --title | --set | --param | --size | --lua-memory | --lua-time | --max-steps | --what | --status-interval | --at | --only)
		return ;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			words="--db --plugin-path -v -q --version --help"
		else
			words=$("$hb" help 2>/dev/null | sed -n 's/^\(usage:\)\{0,1\} *hbatest \([a-z][a-z]*\).*/\2/p' | sort -u)
			words="$words help version"
		fi
		IFS=$' \n' COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		# the options of its synopsis (the usage lines; its notes and examples
		# may name another tool's, as import's fio --output-format)
		words=$( ("$hb" "$cmd" --help 2>/dev/null | sed -n '1p; 2,${/^ /!q; p}'
			echo --db --plugin-path --help) | grep -o -- '--[a-z][a-z-]*' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	case $cmd in
	run)
		COMPREPLY=($(compgen -f -X '!*.lua' -- "$cur") $(compgen -d -- "$cur")) ;;
	show | report | export)
		COMPREPLY=($(compgen -W "$(_hbatest_runs "$hb")" -- "$cur")) ;;
	sql)
		words=$("$hb" sql --list 2>/dev/null | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p')
		COMPREPLY=($(compgen -W "$words" -- "$cur")) ;;
	import)
		if [ "$prev" = import ]; then
			IFS=' ' COMPREPLY=($(compgen -W "iometer fio hbatest" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	merge | probe)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -o filenames -F _hbatest hbatest ./hbatest
