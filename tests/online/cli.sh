# tests/online/cli.sh - command-line tests of the online family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: online ..." >&2

expect 0 "valid: yes" -- "$SB" eval online --policy zcl --bound --gen staircase --T 60 --C 20
expect 0 "proven_ratio: 3.302585" -- "$SB" eval online --policy zcl --ul 10
# out-of-range game parameters name the field
expect 2 "--ul '1'" -- "$SB" eval online --policy zcl --ul 1
expect 2 "--ul '0.5'" -- "$SB" eval online --policy zcl --ul 0.5
expect 2 "--T '0'" -- "$SB" eval online --policy zcl --T 0
expect 2 "--C 'x'" -- "$SB" eval online --policy zcl --C x
expect 2 "--M '1'" -- "$SB" eval online --policy zcl --M 1
expect 2 "field 'D'" -- "$SB" eval online --policy zcl --C 3 --D 4
expect 2 "--gen 'zz'" -- "$SB" eval online --policy zcl --gen zz
expect 2 "not a registered" -- "$SB" eval online --policy nosuch
# a user's buyers: file, line and field in every error
printf 'd,v\n1,2\n2,9.5\n1,3\n' > "$tmp/buyers.csv"
expect 0 "rounds: 3" -- "$SB" eval online --policy zlw --buyers "$tmp/buyers.csv" --C 2 --D 2 --bound
printf 'd,v\n1,2\n1,20\n' > "$tmp/b2.csv"
expect 2 "line 3: field 'v'" -- "$SB" eval online --policy zcl --buyers "$tmp/b2.csv"
printf 'd,v\n0,2\n' > "$tmp/b3.csv"
expect 2 "line 2: field 'd'" -- "$SB" eval online --policy zcl --buyers "$tmp/b3.csv"
printf 'v,d\n1,2\n' > "$tmp/b4.csv"
expect 2 "header 'd,v'" -- "$SB" eval online --policy zcl --buyers "$tmp/b4.csv"
printf 'd,v\n' > "$tmp/b5.csv"
expect 2 "no buyers" -- "$SB" eval online --policy zcl --buyers "$tmp/b5.csv"
expect 2 "nosuch.csv" -- "$SB" eval online --policy zcl --buyers "$tmp/nosuch.csv"
expect 1 "cannot write '/dev/full'" -- "$SB" eval online --policy zcl --schedule-out /dev/full
same_points_across_jobs online_cr
# the learned policies read their stored table: none loaded, a missing or
# foreign file is bad input; a trained one evaluates through the checkers
expect 2 "no stored policy table" -- "$SB" eval online --policy learned
expect 2 "nosuch.h5" -- "$SB" eval online --policy learned --table "$tmp/nosuch.h5"
# the reader's message keeps its prefix once (it was formatted from
# err->msg into err->msg)
printf 'not hdf5\n' > "$tmp/bad.h5"
expect 2 "error: stored policy '$tmp/bad.h5': '$tmp/bad.h5' is not an HDF5 results file" -- "$SB" eval online --policy learned --table "$tmp/bad.h5"
cp "$tmp/m1.h5" "$tmp/cr.h5"   # online_cr's, from the check above
same_points_across_jobs online_learn
expect 0 "valid: yes" -- "$SB" eval online --policy learned --table "$tmp/m1.h5" --T 10 --C 10 --D 2 --ul 2
expect 0 "valid: yes" -- "$SB" eval online --policy learned-reinforce --table "$tmp/m1.h5" --T 10 --C 10 --D 2 --ul 5
expect 2 "no stored policy table for T = 20" -- "$SB" eval online --policy learned --table "$tmp/m1.h5"
expect 2 "no column 'kind'" -- "$SB" eval online --policy learned --table "$tmp/cr.h5"
# sb adversary online: the annealing search and its bad input
expect 0 "worst_ratio: " -- "$SB" adversary online --policy zcl --iters 50
expect 0 "search: exhaustive" -- "$SB" adversary online --policy greedy --exhaustive --set T=3
expect 2 "stored" -- "$SB" adversary online --policy learned
expect 2 "offline" -- "$SB" adversary online --policy hindsight
expect 2 "unknown policy 'nosuch'" -- "$SB" adversary online --policy nosuch
expect 2 "--policy is required" -- "$SB" adversary online
expect 2 "--iters '0'" -- "$SB" adversary online --policy zcl --iters 0
expect 2 "--iters 'x'" -- "$SB" adversary online --policy zcl --iters x
expect 2 "--seed needs a value" -- "$SB" adversary online --policy zcl --seed
expect 2 "--versus given twice" -- "$SB" adversary online --policy zcl --versus greedy --versus zlw
expect 2 "ul" -- "$SB" adversary online --policy zcl --set ul=1
expect 2 "T" -- "$SB" adversary online --policy zcl --set T=0
expect 2 "nosuch" -- "$SB" adversary online --policy zcl --set nosuch=1
expect 2 "more than" -- "$SB" adversary online --policy zcl --exhaustive --set T=12
expect 2 "unknown option '--bogus'" -- "$SB" adversary online --policy zcl --bogus
expect 2 "no adversary hook: 'nosuch'" -- "$SB" adversary nosuch --policy zcl
# online_ratio's game sizes are range-checked
expect 2 "et" -- "$SB" run online_ratio --quick --set et=7 --out "$tmp/olr.h5"
expect 2 "nv" -- "$SB" run online_ratio --quick --set nv=1 --out "$tmp/olr.h5"
same_points_across_jobs online_ratio adversary
# K = 2 resource types: a user's demand vectors (header d1,d2,v), the
# per-type capacities and their bad input
printf 'd1,d2,v\n1,2,2\n2,1,9.5\n1,1,3\n' > "$tmp/k2.csv"
expect 0 "capacity2: 3" -- "$SB" eval online --policy zlw --buyers "$tmp/k2.csv" --K 2 --C 2 --C2 3 --D 2 --bound
expect 0 "opt_glpk: 34.5" -- "$SB" eval online --policy greedy --buyers "$tmp/k2.csv" --K 2 --C 3 --C2 3 --D 2 --bound
expect 0 "valid: yes" -- "$SB" eval online --policy zcl --K 2 --C 6 --C2 4 --D 2 --gen logrand
expect 2 "--K '3'" -- "$SB" eval online --policy zcl --K 3
expect 2 "--C2: a second capacity needs --K 2" -- "$SB" eval online --policy zcl --C2 4
expect 2 "field 'C2'" -- "$SB" eval online --policy zcl --K 2 --C 2000 --C2 2000
expect 2 "field 'D'" -- "$SB" eval online --policy zcl --K 2 --C 5 --C2 1 --D 2
expect 2 "header 'd1,d2,v'" -- "$SB" eval online --policy zcl --K 2 --D 2 --buyers "$tmp/buyers.csv"
printf 'd1,d2,v\n1,3,2\n' > "$tmp/k2b.csv"
expect 2 "line 2: field 'd2'" -- "$SB" eval online --policy zcl --K 2 --D 2 --buyers "$tmp/k2b.csv"
expect 0 "worst_ratio: " -- "$SB" adversary online --policy zlw --iters 50 --set K=2 --set T=4
expect 2 "'K'" -- "$SB" adversary online --policy zcl --set K=3
expect 2 "k2d" -- "$SB" run online_ratio --quick --set k2d=5 --out "$tmp/olr.h5"
