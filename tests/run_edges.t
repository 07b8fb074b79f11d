#!/usr/bin/env bash
# Plans and resumes at their edges: a plan of no step, compiled Lua, a
# folder given as the plan; --resume without RUN skips a live run and takes
# the plan as ./NAME as well as NAME; fio latency logs without a rate log.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1

# --- plans that cannot run ---------------------------------------------------
printf -- '-- nothing here\n' > empty.lua
out=$("$HB" run empty.lua --db e.db --target v1 2>&1); rc=$?
is "$rc $([ -e e.db ] && echo db)" "1 " "a plan of no step: exit 1, no database (it read done, 0 steps)"
like "$out" "plan 'empty.lua' has no step" "saying so"
out=$("$HB" run empty.lua --target v1 --dry-run 2>&1)
like "$? $out" "^1 .*plan 'empty.lua' has no step" "--dry-run of it says so too, exit 1 (it printed 0 steps, exit 0)"

printf '\033Lua\124\000' > compiled.lua
out=$("$HB" run compiled.lua --db c.db --target v1 2>&1); rc=$?
is "$rc" 1 "compiled Lua (luac output) as a plan: exit 1"
like "$out" "'compiled.lua' is compiled Lua \(luac output\): give the plan's source" "naming the file"

mkdir -p folder.lua
out=$("$HB" run folder.lua --db f.db --target v1 2>&1)
like "$out" "cannot read plan 'folder.lua': Is a directory" "a folder as the plan: said so (not 'Input/output error')"

# --- --resume without RUN -----------------------------------------------------
cat > two.lua <<'LUA'
hb.run{ name = "a", engine = "null", duration = 1 }
if os.getenv("HB_TEST_STOP") == "1" and not hb.dry then error("stopped") end
hb.run{ name = "b", engine = "null", duration = 1 }
LUA
HB_TEST_STOP=1 "$HB" run two.lua --db r.db --target v1 -q 2>/dev/null
is "$(q r.db "SELECT status FROM runs")" failed "run 1 stops after step a"
# run 2 of the same plan, newer, 'running' in a live process (this test's shell)
HB_TEST_STOP=1 "$HB" run two.lua --db r.db --target v1 -q 2>/dev/null
q r.db "UPDATE runs SET status = 'running', pid = $$ WHERE id = 2"
out=$("$HB" run ./two.lua --resume --db r.db 2>&1); rc=$?
is "$rc" 0 "--resume as ./two.lua (run as two.lua) takes the newest run whose process is gone"
is "$(q r.db "SELECT group_concat(id || ':' || status, ' ') FROM runs")" "1:done 2:running" \
	"run 1 is resumed and done; the live run 2 is left alone"
q r.db "UPDATE runs SET status = 'running', pid = $$ WHERE id = 2"
out=$("$HB" run --resume --db r.db 2>&1); rc=$?
is "$rc" 1 "with only a live run left: exit 1"
like "$out" "no unfinished run in '.*r.db' to resume \(run 2 is still running\)" "naming the live run"

# --- fio latency logs with no IOPS or bandwidth log ----------------------------
if command -v fio >/dev/null; then
	truncate -s 64M t.dat
	fio --name=l --filename=t.dat --ioengine=psync --rw=randread --bs=4k --runtime=2 --time_based \
		--write_lat_log=l --log_avg_msec=1000 --output-format=json --output=l.json >/dev/null 2>&1
	out=$("$HB" import fio l.json l_clat.1.log --db l.db 2>&1); rc=$?
	is "$rc $([ -e l.db ] && echo db)" "1 " "a clat log alone: refused, nothing imported"
	like "$out" "job 'l' has latency logs but no IOPS or bandwidth log" "saying its I/Os are not known"
else
	skip "fio is not installed"; skip "fio is not installed"
fi
done_testing
