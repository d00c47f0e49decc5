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
expect 0 "dag_graphs" -- "$SB" list experiments

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
	# verify-claims: a claim whose rows are missing fails and the next is
	# still judged (exit 1); a malformed check is bad input (exit 2)
	printf 'id\tpaper\tclaim\tsource\tfile\tcheck\nq-1\tt\tnothing to read\tO\ta.h5\tmean(makespan | policy=nosuch) > 0\nq-2\tt\tsomething\tO\ta.h5\tcount(makespan) >= 1\n' > "$tmp/claims.tsv"
	expect 1 "FAIL q-1 .*no matching rows" -- "$SB" verify-claims --claims "$tmp/claims.tsv" --results "$tmp"
	grep -q "^PASS q-2 " "$tmp/out" && grep -q "^1 passed, 1 failed" "$tmp/out" && ok || bad "verify-claims stopped at a claim without rows"
	printf 'id\tpaper\tclaim\tsource\tfile\tcheck\nq-3\tt\tbad\tO\ta.h5\tmean(makespan |\n' > "$tmp/claims2.tsv"
	expect 2 "line 2: field 'check'" -- "$SB" verify-claims --claims "$tmp/claims2.tsv" --results "$tmp"
	expect 0 "git_sha" -- "$SB" show "$tmp/a.h5"
	expect 0 "makespan" -- "$SB" export "$tmp/a.h5" summary
else
	bad "quick run failed: $(cat "$tmp/e1" "$tmp/e2" 2>/dev/null | tail -3)"
fi

# determinism of solver results (GLPK stops at node/iteration limits, not
# at wall-clock ones, so MILP bounds are the same whatever the load) and of
# the cluster simulations (random forests, policy streams), and of the
# pipeline planners on random topologies
for e in dag_milp dag_stg cluster_load cluster_pred pipeline_irregular pipeline_bound; do
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

# eval pipeline: bad inputs exit 2 with a message naming what is wrong
expect 2 "give exactly one of --model" -- "$SB" eval pipeline --topo config-a --batch 64 --policy sppr
expect 2 "give exactly one of --topo" -- "$SB" eval pipeline --model bert-48 --batch 64 --policy sppr
expect 2 "batch is required" -- "$SB" eval pipeline --model bert-48 --topo config-a --policy sppr
expect 2 "'nosuch' is not a registered pipeline planner" -- "$SB" eval pipeline --model bert-48 --topo config-a --batch 64 --policy nosuch
expect 2 "'nosuch' is not a registered pipeline schedule" -- "$SB" eval pipeline --model bert-48 --topo config-a --batch 64 --policy sppr+nosuch
expect 2 "unknown analytic model" -- "$SB" eval pipeline --model nosuch --topo config-a --batch 64 --policy sppr
expect 2 "config-a" -- "$SB" eval pipeline --model bert-48 --topo nosuch --batch 64 --policy sppr
expect 2 "'nosuch' is not a parameter of planner sppr" -- "$SB" eval pipeline --model bert-48 --topo config-a --batch 64 --policy sppr --set nosuch=1
expect 2 "expected a number" -- "$SB" eval pipeline --model bert-48 --topo config-a --batch x --policy sppr
printf 'node1 -- Input -- forward_compute_time=0.0, backward_compute_time=0.0, activation_size=4.0, parameter_size=0.0\nnode2 -- Conv -- forward_compute_time=x, backward_compute_time=1.0, activation_size=4.0, parameter_size=8.0\n\tnode1 -- node2\n' > "$tmp/bad-pbs-8.txt"
expect 2 "$tmp/bad-pbs-8.txt" -- "$SB" eval pipeline --dapple "$tmp/bad-pbs-8.txt" --topo config-a --batch 64 --policy sppr
expect 1 "no plan\|nothing fits\|does not fit\|cannot" -- "$SB" eval pipeline --model gpt2-xl --topo config-a --batch 64 --policy dp
# eval pipeline --opt: the exact optimum of a tiny instance, never above
# SPP-R's time; too large an instance is refused
printf 'node1 -- Input -- forward_compute_time=0.0, backward_compute_time=0.0, activation_size=400000.0, parameter_size=0.0\n' > "$tmp/tiny-pbs-4.txt"
for i in 2 3 4 5 6 7 8; do
	printf 'node%d -- Linear -- forward_compute_time=%d.0, backward_compute_time=%d.5, activation_size=%d00000.0, parameter_size=%d000000.0\n\tnode%d -- node%d\n' $i $i $((i + 1)) $i $((9 - i)) $((i - 1)) $i >> "$tmp/tiny-pbs-4.txt"
done
expect 0 "opt_s: .*proven" -- "$SB" eval pipeline --dapple "$tmp/tiny-pbs-4.txt" --random-topo 4 --seed 2 --batch 16 --microbatches 4 --policy sppr --opt
awk '/^gap_to_opt:/ { g = $2 } END { exit !(g != "" && g >= -1e-9) }' "$tmp/out" && ok || bad "eval pipeline --opt: SPP-R below the optimum or no gap: $(tail -3 "$tmp/out")"
expect 2 "10" -- "$SB" eval pipeline --model bert-48 --topo config-a --batch 256 --policy sppr --opt
# eval pipeline: every planner on a real topology, checked, with bounds
pls=$("$SB" list pipeline | awk '$1 == "pipeline" && $3 == "planner" { print $2 }')
[ "$(echo "$pls" | wc -w)" -ge 7 ] && ok || bad "sb list pipeline lists too few planners: $pls"
for p in $pls; do
	expect 0 "checker: ok" -- "$SB" eval pipeline --model gnmt-16 --topo 2x8-nvlink-25gbe --batch 1024 --microbatches 16 --policy "$p" --bound
	awk '/^iteration_time_s:/ { t = $2 } /^lb_any_plan_s:/ { b = $2 } END { exit !(t > 0 && b > 0 && t >= b * (1 - 1e-9)) }' "$tmp/out" && ok ||
		bad "eval pipeline $p: iteration time below the bound or missing: $(head -c 400 "$tmp/out")"
done
if "$SB" eval pipeline --model vgg19 --topo 4x4-pcie-10gbe --batch 512 --microbatches 8 --policy sppr+1f1b --schedule-out "$tmp/tl.csv" >"$tmp/out" 2>"$tmp/err"; then
	[ "$(head -n 1 "$tmp/tl.csv")" = "copy,stage,link,kind,microbatch,start,end" ] && ok || bad "--schedule-out (pipeline): header"
	S=$(sed -n 's/^plan: S=\([0-9]*\) .*/\1/p' "$tmp/out")
	[ "$(awk -F, 'NR > 1 && $2 >= 0' "$tmp/tl.csv" | wc -l)" -eq $((2 * 8 * S)) ] && ok ||
		bad "--schedule-out (pipeline): not 2 M S compute tasks"
else
	bad "eval pipeline --schedule-out failed: $(head -c 300 "$tmp/err")"
fi

# eval cluster: bad inputs exit 2 with a message naming what is wrong
expect 2 "give one job set" -- "$SB" eval cluster --policy fifo
expect 2 "give one job set" -- "$SB" eval cluster --w1 10 --jobs "$tmp/none.csv" --policy fifo
expect 2 "policy is required" -- "$SB" eval cluster --w1 10
expect 2 "unknown cluster 'nosuch' (known: testbed" -- "$SB" eval cluster --w1 10 --cluster nosuch --policy fifo
expect 2 "not a registered cluster scheduler (schedulers: .*fifo" -- "$SB" eval cluster --w1 10 --policy nosuch
expect 2 "not a registered cluster placer (placers: .*packed" -- "$SB" eval cluster --w1 10 --policy fifo+nosuch
expect 2 "'nosuch' is not a parameter of scheduler tiresias (queues, starve)" -- "$SB" eval cluster --w1 10 --policy tiresias --set nosuch=1
expect 2 "unknown parameter 'nosuch' (known: queues" -- "$SB" eval cluster --w1 10 --policy tiresias --set sched.nosuch=1
expect 2 "unknown option '--bogus'" -- "$SB" eval cluster --w1 10 --policy fifo --bogus 1
expect 2 "expected a number" -- "$SB" eval cluster --w1 10 --policy fifo --load x
expect 2 "cannot read job set '$tmp/none.csv'" -- "$SB" eval cluster --jobs "$tmp/none.csv" --policy fifo
printf 'arrival,model,d,t,p,iters\n0,resnet50,4,1,1,200\n0,resnet50,4,2,1,200\n' > "$tmp/badjobs.csv"
expect 2 "cannot read job set '$tmp/badjobs.csv': line 3: field 't'" -- "$SB" eval cluster --jobs "$tmp/badjobs.csv" --cluster testbed --policy fifo
printf 'arrival,model,d,t,p,iters\n0,resnet50,32,1,1,200\n' > "$tmp/bigjob.csv"
expect 2 "more than the cluster has" -- "$SB" eval cluster --jobs "$tmp/bigjob.csv" --cluster testbed --policy fifo

# eval cluster: runs that work
expect 0 "valid: yes" -- "$SB" eval cluster --w1 50 --policy fifo --bound
for k in "jct_mean: " "lb1_total_completion: " "ratio_lb1: " "^jobs: 50$"; do
	grep -q -- "$k" "$tmp/out" && ok || bad "eval cluster --w1 50 --bound: output lacks '$k'"
done
scheds=$("$SB" list cluster | awk '$1 == "cluster" && $3 == "schedule" { print $2 }')
[ "$(echo "$scheds" | wc -w)" -ge 5 ] && ok || bad "sb list cluster lists too few schedulers: $scheds"
for s in $scheds; do
	expect 0 "valid: yes" -- "$SB" eval cluster --w1 40 --policy "$s"
done
printf 'user,arrival,model,d,t,p,iters,family\n1,0,resnet50,4,1,1,200,0\n0,10,bert-base,2,2,1,100,-1\n1,10,vgg16,2,1,2,50,0\n2,5,gpt2-medium,2,2,2,20,3\n' > "$tmp/jobs.csv"
expect 0 "source: user job set '$tmp/jobs.csv' (4 jobs)" -- "$SB" eval cluster --jobs "$tmp/jobs.csv" --cluster testbed --policy fifo-bf+kl
grep -q "^jobs: 4$" "$tmp/out" && grep -q "^valid: yes$" "$tmp/out" && ok || bad "eval cluster --jobs: $(head -c 300 "$tmp/out")"

# --schedule-out: a header and one line per run segment (one per job plus
# one per preemption), every job present
if "$SB" eval cluster --w1 60 --policy tiresias --seed 3 --schedule-out "$tmp/seg.csv" >"$tmp/segrun" 2>"$tmp/err"; then
	nj=$(sed -n 's/^jobs: //p' "$tmp/segrun")
	np=$(sed -n 's/^preemptions: //p' "$tmp/segrun")
	[ "$(head -n 1 "$tmp/seg.csv")" = "job,start,end,overhead,iters,tau,cut_bytes,preempted,gpus" ] && ok ||
		bad "--schedule-out: header is '$(head -n 1 "$tmp/seg.csv")'"
	[ "$(wc -l < "$tmp/seg.csv")" -eq $((1 + nj + np)) ] && ok ||
		bad "--schedule-out: $(wc -l < "$tmp/seg.csv") lines for $nj jobs and $np preemptions"
	[ "$np" -gt 0 ] && ok || bad "--schedule-out: tiresias preempted nothing, the test checks less than it should"
	[ "$(tail -n +2 "$tmp/seg.csv" | cut -d, -f1 | sort -u | wc -l)" -eq "$nj" ] && ok ||
		bad "--schedule-out: not every job has a segment"
	awk -F, 'NR > 1 && (NF != 9 || $3 < $2) { exit 1 }' "$tmp/seg.csv" && ok ||
		bad "--schedule-out: a line without 9 fields or ending before it starts"
else
	bad "eval cluster --schedule-out failed: $(head -c 300 "$tmp/err")"
fi

# eval cluster: the same seed gives the same output (but for wall-clock times)
for p in asrpt tiresias+random; do
	"$SB" eval cluster --w1 80 --policy $p --seed 9 2>&1 | grep -v -e '^sim_seconds:' -e '^policy_seconds:' > "$tmp/d1.txt"
	"$SB" eval cluster --w1 80 --policy $p --seed 9 2>&1 | grep -v -e '^sim_seconds:' -e '^policy_seconds:' > "$tmp/d2.txt"
	"$SB" eval cluster --w1 80 --policy $p --seed 10 2>&1 | grep -v -e '^sim_seconds:' -e '^policy_seconds:' > "$tmp/d3.txt"
	grep -q "^valid: yes$" "$tmp/d1.txt" && cmp -s "$tmp/d1.txt" "$tmp/d2.txt" && ok ||
		bad "eval cluster $p: two runs with seed 9 differ or failed"
	cmp -s "$tmp/d1.txt" "$tmp/d3.txt" && bad "eval cluster $p: seeds 9 and 10 gave the same output" || ok
done

# the Tiresias trace (make data fetches it)
if [ -r data/tiresias/60_job.csv ]; then
	expect 0 "valid: yes" -- "$SB" eval cluster --tiresias data/tiresias/60_job.csv --cluster testbed --policy fifo
	grep -q "^jobs: 60$" "$tmp/out" && ok || bad "eval cluster --tiresias: not 60 jobs"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
