# tests/alloc/cli.sh - command-line tests of the alloc family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: alloc ..." >&2

# determinism: the same points on 1 and on 2 workers (GLPK on node limits)
same_points_across_jobs alloc_bounds

# eval alloc: bad inputs exit 2 naming what is wrong
expect 2 "give one job set" -- "$SB" eval alloc --policy fifo
expect 2 "not a registered alloc policy" -- "$SB" eval alloc --gen 10 --policy nosuch
expect 2 "unknown option '--bogus'" -- "$SB" eval alloc --gen 10 --policy fifo --bogus 1
expect 2 "--mode 'x': expected rar or ps" -- "$SB" eval alloc --gen 10 --mode x --policy fifo
expect 2 "--util 'x': expected exc" -- "$SB" eval alloc --gen 10 --util x --policy fifo
expect 2 "--slots '0'" -- "$SB" eval alloc --gen 10 --slots 0 --policy fifo
expect 2 "cannot read job table '$tmp/none.csv'" -- "$SB" eval alloc --jobs "$tmp/none.csv" --policy fifo
printf 'arrival,mode,model,epochs,max_workers,max_ps,weight\n0,rar,resnet-50,10,4,0,1\n1,ps,vgg-16,10,4,0,1\n' > "$tmp/ajobs.csv"
expect 2 "cannot read job table '$tmp/ajobs.csv': line 3: field 'max_ps'" -- "$SB" eval alloc --jobs "$tmp/ajobs.csv" --policy fifo
printf 'arrival,mode,model,epochs,max_workers,max_ps,weight\n0,rar,nosuch,10,4,0,1\n' > "$tmp/ajobs2.csv"
expect 2 "line 2: field 'model': 'nosuch' is not a job type" -- "$SB" eval alloc --jobs "$tmp/ajobs2.csv" --policy fifo
printf 'count,gpus,cpus\n2,8,x\n' > "$tmp/acl.csv"
expect 2 "cannot read cluster '$tmp/acl.csv': line 2: field 'cpus'" -- "$SB" eval alloc --gen 5 --cluster "$tmp/acl.csv" --policy fifo
printf 'arrival,mode,model,epochs,max_workers,max_ps,weight\n0,rar,resnet-50,10,4,0,1\n' > "$tmp/ajobs3.csv"
printf 'count,gpus,cpus\n2,0,8\n' > "$tmp/acl2.csv"
expect 2 "needs more than any server" -- "$SB" eval alloc --jobs "$tmp/ajobs3.csv" --cluster "$tmp/acl2.csv" --policy fifo
expect 2 "models PS jobs" -- "$SB" eval alloc --gen 3 --util jct --slots 6 --policy fifo --bound

# eval alloc: runs that work, with the user's files
printf 'arrival,mode,model,epochs,max_workers,max_ps,weight\n0,ps,resnet-50,20,4,4,1\n\n1,ps,dssm,5,2,2,2\r\n' > "$tmp/ajobs4.csv"
printf 'count,gpus,cpus\n2,8,24\n1,4,8\n' > "$tmp/acl3.csv"
expect 0 "valid: yes" -- "$SB" eval alloc --jobs "$tmp/ajobs4.csv" --cluster "$tmp/acl3.csv" --policy drf --util jct
grep -q "^servers: 3$" "$tmp/out" && grep -q "^jobs: 2$" "$tmp/out" && ok || bad "eval alloc --jobs: $(head -c 300 "$tmp/out")"
expect 0 "bound_model: gadget-pattern-ilp" -- "$SB" eval alloc --gen 3 --servers 2 --gpus 4 --slots 5 --policy fifo --bound
grep -q "^bound_status: optimal$" "$tmp/out" && ok || bad "eval alloc --bound, 3 jobs: not proven optimal: $(head -c 300 "$tmp/out")"
# more jobs than the slot-pattern form enumerates: the compact form bounds them
expect 0 "bound_model: gadget-config-" -- "$SB" eval alloc --gen 12 --servers 2 --gpus 4 --slots 3 --policy fifo --bound
expect 2 "policy smd schedules parameter-server jobs only" -- "$SB" eval alloc --gen 3 --policy smd
for p in $("$SB" list alloc | awk '$1 == "alloc" { print $2 }'); do
	case "$p" in smd*|pslocality|oasis) ;; *) expect 0 "valid: yes" -- "$SB" eval alloc --gen 30 --policy "$p" ;; esac
	expect 0 "valid: yes" -- "$SB" eval alloc --gen 12 --mode ps --servers 4 --util jct --policy "$p"
done

# SMD figures: the round experiment (GLPK on node limits) is the same on 1
# and 2 workers
same_points_across_jobs alloc_smd_round
# DL2's speed table in DATA_DIR: a malformed line stops smd-F6 naming the
# file, the line and the field; without it F6 runs on the model alone and
# says so; with the real file its sha256 is in the results
mkdir -p "$tmp/sdd/dl2" "$tmp/sdd0"
printf "('m', 'dist_sync', 32, 1, 1, [1.5], [0.3], [0.2])\n('m', 'dist_sync', 32, 1, 2, [1.5, 1.5], [0.3], [0.2, 0.2])\n('m', 'dist_sync', 32, 1, 3, [1.5, 1], [0.3], [0.2, 0.2, 0.1])\n" > "$tmp/sdd/dl2/config_speed.txt"
expect 2 "cannot read speed table '$tmp/sdd/dl2/config_speed.txt': line 3: field 'speeds': 2 entries, expected 3" -- "$SB" run alloc_smd_speed --quick --data-dir "$tmp/sdd" --out "$tmp/sp.h5"
printf "('m', 'dist_sync', 32, 0, 1, [1.5], [], [0.2])\n" > "$tmp/sdd/dl2/config_speed.txt"
expect 2 "line 1: field 'num_ps'" -- "$SB" run alloc_smd_speed --quick --data-dir "$tmp/sdd" --out "$tmp/sp.h5"
expect 0 "" -- "$SB" run alloc_smd_speed --quick --data-dir "$tmp/sdd0" --out "$tmp/sp0.h5"
"$SB" show "$tmp/sp0.h5" | grep -q "no DL2 speed table" && ok || bad "alloc_smd_speed without the speed table does not say so"
if [ -f data/dl2/config_speed.txt ]; then
	expect 0 "" -- "$SB" run alloc_smd_speed --quick --out "$tmp/sp1.h5"
	"$SB" show "$tmp/sp1.h5" | grep -q "sha256 *bf03ce681c59b70b216b8a49da151db4ac2827694777bc3c48e8d087984c4cf4" && ok ||
		bad "alloc_smd_speed: the speed table's sha256 is not in the results"
fi
# sb adversary alloc: the search against GADGET's configuration ILP proven
# optimal, on a few ring-all-reduce jobs, and its bad input
expect 0 "worst_ratio: " -- "$SB" adversary alloc --policy gadget-r --iters 20
expect 0 "opt: .* (proven)" -- "$SB" adversary alloc --policy fifo --iters 20
expect 0 "versus: tetris" -- "$SB" adversary alloc --policy drf --versus tetris --iters 20
expect 0 "rejected: 0" -- "$SB" adversary alloc --policy srtf --set jobs=1 --exhaustive
expect 2 "parameter-server jobs only" -- "$SB" adversary alloc --policy smd
expect 2 "unknown policy 'nosuch'" -- "$SB" adversary alloc --policy nosuch
expect 2 "arr=5: at most slots=4" -- "$SB" adversary alloc --policy fifo --set arr=5
expect 2 "jobs" -- "$SB" adversary alloc --policy fifo --set jobs=6
