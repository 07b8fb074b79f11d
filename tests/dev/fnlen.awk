# make lint: name each C function longer than max lines (its "{" and "}" at
# column 0, as every function here is written), as a warning.
# C functions longer than max lines (from the "{" at column 0 to the "}" at column 0)
/^\{/ { start = FNR; name = prev }
/^\}/ && start { n = FNR - start + 1; if (n > max) printf "warning: %s:%d: %s is %d lines (past %d): does it do two things?\n", FILENAME, start, name, n, max; start = 0 }
{ if ($0 !~ /^[{}]/ && $0 ~ /^[a-zA-Z_]/) { prev = $0; sub(/\(.*/, "", prev); sub(/.*[ *]/, "", prev) } }
