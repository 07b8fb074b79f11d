#!/usr/bin/env bash
# hbatest -V / --version: the version, ABI, schema and the git commit built
# (from the Makefile); a run stores that commit as runs.build_commit.
. "$(dirname "$0")/lib.sh"

out=$("$HB" -V); ok $? "-V exits 0"
is "$out" "$("$HB" --version)" "-V prints what --version prints"
like "$out" '^hbatest [0-9]+\.[0-9]+\.[0-9]+ \(plugin ABI [0-9]+\.[0-9]+, database schema [0-9]+\)' \
	"the version, the plugin ABI and the schema"
commit=$(printf '%s\n' "$out" | sed -n 's/^commit //p')
if head=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null); then
	like "$commit" "^$head(-dirty)?\$" "built in git: the commit is HEAD's, 12 digits (rebuild after a commit)"
else
	is "$commit" "unknown (not built in a git checkout)" "built outside git: the commit is unknown"
fi

printf 'hb.run{ engine = "null", duration = 1, targets = { "v" } }\n' > "$TMP/p.lua"
"$HB" run "$TMP/p.lua" --db "$TMP/v.db" -q 2>/dev/null; ok $? "a run"
want=$commit shown=$commit
[ "${commit#unknown}" != "$commit" ] && want=NULL shown=-
is "$(q "$TMP/v.db" "SELECT COALESCE(build_commit, 'NULL') FROM runs")" "$want" \
	"stores the commit built as runs.build_commit (NULL when not known)"
like "$("$HB" show 1 --db "$TMP/v.db")" "commit +$shown" "show prints it"

done_testing
