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
# at wall-clock ones, so MILP bounds are the same whatever the load
same_points_across_jobs dag_milp dag_stg

# values beyond what any loader accepts are named, not carried into a
# schedule the checker then rejects
printf 'Id,out,in,coloc,tensor,ops,ram,dc,name\n1,,,,5,1.5e308,1,NO,a\n' > "$tmp/huge.csv"
expect 2 "line 2: field '#operations': value 1.5e+308 out of range" -- "$SB" eval dag --graph "$tmp/huge.csv" --devices "$tmp/d.csv" --policy cp+pct
# a schedule that cannot be written is a failure
printf 'Id,out,in,coloc,tensor,ops,ram,dc,name\n1,,,,5,10,1,NO,a\n' > "$tmp/one.csv"
expect 1 "cannot write '/dev/full'" -- "$SB" eval dag --graph "$tmp/one.csv" --devices "$tmp/d.csv" --policy cp+pct --schedule-out /dev/full
