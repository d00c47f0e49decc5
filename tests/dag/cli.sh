# tests/dag/cli.sh - command-line tests of the dag family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: dag ..." >&2

# eval: bad inputs name the file and line
printf 'Id,out,in,coloc,tensor,ops,ram,dc,name\n1,2,,,5,x,1,NO,a\n' > "$tmp/g.csv"
printf 'Id,RAM,ops,rates,type\n0,100,10,,CPU\n' > "$tmp/d.csv"
expect 2 "line 2" -- "$SB" eval dag --graph "$tmp/g.csv" --devices "$tmp/d.csv" --policy cp+pct
expect 2 "not a registered" -- "$SB" eval dag --stg "$tmp/g.csv" --devices 2 --policy nosuch+pct
expect 2 "" -- "$SB" eval dag --policy heft

# determinism of solver results: GLPK stops at node/iteration limits, not
# at wall-clock ones, so MILP bounds are the same whatever the load. The
# pair runs with both CPUs saturated by busy loops (ours, killed by pid).
busy=
trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
for i in 1 2 3; do
	sh -c 'while :; do :; done' &
	busy="$busy $!"
done
same_points_across_jobs dag_milp dag_stg
# eval --milp NODES: a node budget, so the bound is the same under load
printf '30\n' > "$tmp/m.stg"
awk 'BEGIN { print "0 0 0"; for (i = 1; i <= 30; i++) { p = (i > 10) ? 2 : 1;
	printf "%d %d %d", i, 3 + (i * 7) % 11 + (i % 4) * 5, p; if (i > 10) printf " %d %d", i - 10, i - 7;
	else printf " 0"; printf "\n" } print "31 0 10 21 22 23 24 25 26 27 28 29 30" }' >> "$tmp/m.stg"
for k in 1 2; do
	"$SB" eval dag --stg "$tmp/m.stg" --devices 2 --policy heft --milp 60 > "$tmp/milp$k.txt" 2>&1 || bad "eval --milp 60 failed: $(tail -2 "$tmp/milp$k.txt")"
done
grep -q '^milp_stop: nodes$' "$tmp/milp1.txt" && grep -q '^milp_node_budget: 60$' "$tmp/milp1.txt" && ok || bad "eval --milp 60: no node stop: $(cat "$tmp/milp1.txt")"
grep '^milp_\(status\|stop\|nodes\|bound\|best\)' "$tmp/milp1.txt" > "$tmp/milp1.b"
grep '^milp_\(status\|stop\|nodes\|bound\|best\)' "$tmp/milp2.txt" > "$tmp/milp2.b"
cmp -s "$tmp/milp1.b" "$tmp/milp2.b" && ok || bad "eval --milp 60: the bound differs between two runs"
kill $busy 2>/dev/null
wait $busy 2>/dev/null
trap 'rm -rf "$tmp"' EXIT
# the wall clock is a safety net that says so when it ends the search
expect 0 "safety net (--milp-time 0.001 s)" -- "$SB" eval dag --stg "$tmp/m.stg" --devices 2 --policy heft --milp 1000000000 --milp-time 0.001
expect 0 "milp_stop: time" -- "$SB" eval dag --stg "$tmp/m.stg" --devices 2 --policy heft --milp 1000000000 --milp-time 0.001
expect 2 "--milp '10.5': expected a node budget" -- "$SB" eval dag --stg "$tmp/m.stg" --devices 2 --policy heft --milp 10.5
expect 2 "--milp-time is the safety net of --milp" -- "$SB" eval dag --stg "$tmp/m.stg" --devices 2 --policy heft --milp-time 5
expect 2 "--milp-time '0': expected seconds" -- "$SB" eval dag --stg "$tmp/m.stg" --devices 2 --policy heft --milp 5 --milp-time 0

# values beyond what any loader accepts are named, not carried into a
# schedule the checker then rejects
printf 'Id,out,in,coloc,tensor,ops,ram,dc,name\n1,,,,5,1.5e308,1,NO,a\n' > "$tmp/huge.csv"
expect 2 "line 2: field '#operations': value 1.5e+308 out of range" -- "$SB" eval dag --graph "$tmp/huge.csv" --devices "$tmp/d.csv" --policy cp+pct
# a schedule that cannot be written is a failure
printf 'Id,out,in,coloc,tensor,ops,ram,dc,name\n1,,,,5,10,1,NO,a\n' > "$tmp/one.csv"
expect 1 "cannot write '/dev/full'" -- "$SB" eval dag --graph "$tmp/one.csv" --devices "$tmp/d.csv" --policy cp+pct --schedule-out /dev/full
# sb adversary dag: the annealing search on tiny graphs and its bad input
expect 0 "worst_ratio: " -- "$SB" adversary dag --policy cp+pct --iters 30
expect 0 "versus: heft" -- "$SB" adversary dag --policy hash --versus heft --iters 30
expect 2 "not a registered dag partitioner" -- "$SB" adversary dag --policy nosuch+pct
expect 2 "n" -- "$SB" adversary dag --policy cp+pct --set n=8
expect 2 "devices" -- "$SB" adversary dag --policy cp+pct --set devices=0
expect 2 "more than" -- "$SB" adversary dag --policy cp+pct --exhaustive
