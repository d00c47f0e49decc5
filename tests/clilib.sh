# clilib.sh - helpers of the command-line tests, sourced (not run) by
# tests/cli.sh before the engine checks and every family's tests/*/cli.sh:
# the binary under test ($SB), a scratch directory ($tmp, removed at exit),
# the pass/fail counters and the check helpers.
set -u
SB=${SB_BIN:-bin/sb}
tmp=$(mktemp -d /tmp/sbcli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "cli: FAIL: $*" >&2; }

# expect CODE PATTERN -- command...
# The command exits CODE and its output or error (kept in $tmp/out and
# $tmp/err for further checks) contains the grep pattern PATTERN ("": any).
expect() {
	code=$1; pat=$2; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		bad "$* exited $rc, expected $code ($(head -c 300 "$tmp/err"))"
	elif [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out" "$tmp/err"; then
		bad "$*: output lacks '$pat'"
	else
		ok
	fi
}

# same_points_across_jobs EXPERIMENT...
# Each experiment, run at --quick with one seed on 1 and on 2 workers, gives
# bit-identical datasets (two checks: every dataset but the wall-clock
# timing, and no solve stopped at a wall-clock time limit, which would
# make a result depend on the load).
same_points_across_jobs() {
	for e in "$@"; do
		if "$SB" run "$e" --quick --seed 5 --jobs 1 --out "$tmp/m1.h5" 2>"$tmp/e1" &&
		   "$SB" run "$e" --quick --seed 5 --jobs 2 --out "$tmp/m2.h5" 2>"$tmp/e2"; then
			# points and every detail dataset (not timing: wall clock)
			for ds in $("$SB" show "$tmp/m1.h5" |
				    awk '$1 == "dataset" && $2 != "timing:" { sub(/:$/, "", $2); print $2 }'); do
				"$SB" export "$tmp/m1.h5" "$ds" --exact > "$tmp/m1.txt"
				"$SB" export "$tmp/m2.h5" "$ds" --exact > "$tmp/m2.txt"
				cmp -s "$tmp/m1.txt" "$tmp/m2.txt" && ok || bad "$e: $ds differ between --jobs 1 and 2"
			done
			grep -q "time limit" "$tmp/e1" "$tmp/e2" && bad "$e: a solve hit its time limit" || ok
		else
			bad "$e quick run failed: $(cat "$tmp/e1" "$tmp/e2" 2>/dev/null | tail -3)"
		fi
	done
}
