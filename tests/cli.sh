#!/bin/sh
# Command-line tests of bin/sb: exit codes and messages on bad input, and
# determinism of results across worker counts (bit-exact, via --exact).
set -u
SB=${SB_BIN:-bin/sb}
tmp=$(mktemp -d /tmp/sbcli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "cli: FAIL: $*" >&2; }

# expect CODE PATTERN -- command...
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

expect 2 "usage" -- "$SB"
expect 2 "unknown command" -- "$SB" frobnicate
expect 2 "unknown experiment" -- "$SB" run nosuch
expect 2 "unknown parameter" -- "$SB" run dag_density --set nosuch=1
expect 2 "out of range" -- "$SB" run dag_density --set reps=0
expect 2 "not a number" -- "$SB" run dag_density --set reps=x
expect 2 "jobs" -- "$SB" run dag_density --jobs 0
expect 2 "cannot open results" -- "$SB" show "$tmp/missing.h5"
printf 'not hdf5\n' > "$tmp/junk.h5"
expect 2 "not an HDF5" -- "$SB" show "$tmp/junk.h5"
expect 0 "heft" -- "$SB" list dag
expect 0 "tf_graphs" -- "$SB" list experiments

# eval: bad inputs name the file and line
printf 'Id,out,in,coloc,tensor,ops,ram,dc,name\n1,2,,,5,x,1,NO,a\n' > "$tmp/g.csv"
printf 'Id,RAM,ops,rates,type\n0,100,10,,CPU\n' > "$tmp/d.csv"
expect 2 "line 2" -- "$SB" eval dag --graph "$tmp/g.csv" --devices "$tmp/d.csv" --policy cp+pct
expect 2 "not a registered" -- "$SB" eval dag --stg "$tmp/g.csv" --devices 2 --policy nosuch+pct
expect 2 "" -- "$SB" eval dag --policy heft

# determinism: same seed, 1 and 2 workers -> identical points (bit-exact)
if "$SB" run dag_density --quick --seed 7 --jobs 1 --out "$tmp/a.h5" 2>"$tmp/e1" &&
   "$SB" run dag_density --quick --seed 7 --jobs 2 --out "$tmp/b.h5" 2>"$tmp/e2"; then
	"$SB" export "$tmp/a.h5" points --exact > "$tmp/a.txt"
	"$SB" export "$tmp/b.h5" points --exact > "$tmp/b.txt"
	if cmp -s "$tmp/a.txt" "$tmp/b.txt" && [ "$(wc -l < "$tmp/a.txt")" -gt 1 ]; then ok
	else bad "points differ between --jobs 1 and --jobs 2"; fi
	"$SB" run dag_density --quick --seed 8 --jobs 2 --out "$tmp/c.h5" 2>/dev/null
	"$SB" export "$tmp/c.h5" points --exact > "$tmp/c.txt"
	if cmp -s "$tmp/a.txt" "$tmp/c.txt"; then bad "another seed gave the same points"; else ok; fi
	[ ! -e "$tmp/a.h5.partial" ] && ok || bad "checkpoint directory left behind"
	# an interrupted sweep resumes from its checkpoint and gives the same points
	expect 1 "stopped after 4 points" -- env SB_SWEEP_STOP_AFTER=4 "$SB" run dag_density --quick --seed 7 --jobs 1 --out "$tmp/r.h5"
	[ ! -e "$tmp/r.h5" ] && [ -d "$tmp/r.h5.partial" ] && ok || bad "interrupted run left a results file or no checkpoint"
	expect 0 "resuming, 4 of" -- "$SB" run dag_density --quick --seed 7 --jobs 2 --out "$tmp/r.h5"
	"$SB" export "$tmp/r.h5" points --exact > "$tmp/r.txt"
	cmp -s "$tmp/a.txt" "$tmp/r.txt" && ok || bad "resumed run differs from an uninterrupted one"
	expect 0 "git_sha" -- "$SB" show "$tmp/a.h5"
	expect 0 "makespan" -- "$SB" export "$tmp/a.h5" summary
else
	bad "quick run failed: $(cat "$tmp/e1" "$tmp/e2" 2>/dev/null | tail -3)"
fi

# determinism of solver results: GLPK stops at node/iteration limits, not
# at wall-clock ones, so MILP bounds are the same whatever the load
for e in dag_milp dag_stg; do
	if "$SB" run $e --quick --seed 5 --jobs 1 --out "$tmp/m1.h5" 2>"$tmp/e1" &&
	   "$SB" run $e --quick --seed 5 --jobs 2 --out "$tmp/m2.h5" 2>"$tmp/e2"; then
		"$SB" export "$tmp/m1.h5" points --exact > "$tmp/m1.txt"
		"$SB" export "$tmp/m2.h5" points --exact > "$tmp/m2.txt"
		cmp -s "$tmp/m1.txt" "$tmp/m2.txt" && ok || bad "$e: points differ between --jobs 1 and 2"
		grep -q "time limit" "$tmp/e1" "$tmp/e2" && bad "$e: a solve hit its time limit" || ok
	else
		bad "$e quick run failed: $(cat "$tmp/e1" "$tmp/e2" 2>/dev/null | tail -3)"
	fi
done

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
