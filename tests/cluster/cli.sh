# tests/cluster/cli.sh - command-line tests of the cluster family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: cluster ..." >&2

# determinism of the cluster simulations (random forests, policy streams)
same_points_across_jobs cluster_load cluster_pred cluster_speed

# cluster_speed (the report's speed account): every timed scheduler on
# each setting run (the PAI one always; Philly-scale with make data), the
# policies' own work counted where they do any, and none elsewhere
if "$SB" run cluster_speed --quick --out "$tmp/speed.h5" 2>"$tmp/err"; then
	"$SB" export "$tmp/speed.h5" points | awk '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		w = $h["workload"]; s = $h["sched"]; n[w]++
		if (w == "pai") paiwork[s] = $h["work"] + 0
		kind[s] = kind[s] " " $h["work_what"]; if ($h["work"] + 0 <= 0) zero[s]++
		if ($h["decisions"] + 0 < $h["jobs"] + 0) print "few decisions: " w " " s
	}
	END {
		if (n["pai"] != 13) print "pai rows: " n["pai"]
		for (w in n) if (n[w] != 13) print w " rows: " n[w]
		for (s in kind) {
			k = kind[s]; gsub(/ +/, " ", k)
			if (s ~ /^optimus/) want = "curve-fits"
			else if (s ~ /^asrpt/) want = "tree-rows"
			else if (s ~ /^tiresias/) want = "rank-changes"
			else want = "-"
			m = split(k, a, " ")
			for (i = 1; i <= m; i++) if (a[i] != want && a[i] != "-") print s ": work " a[i] ", expected " want
		}
		for (s in kind) if (s ~ /^(optimus|tiresias-gittins)/ && zero[s]) print s ": no work counted"
	}' > "$tmp/speed.txt"
	[ ! -s "$tmp/speed.txt" ] && ok || bad "cluster_speed: $(head -5 "$tmp/speed.txt")"
	"$SB" export "$tmp/speed.h5" timing | awk 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		!($h["cpu_seconds"] > 0) || !($h["target"] == 2 || $h["target"] == 5) { print }' > "$tmp/speed.txt"
	[ ! -s "$tmp/speed.txt" ] && ok || bad "cluster_speed timing: $(head -3 "$tmp/speed.txt")"
else
	bad "cluster_speed --quick failed: $(tail -3 "$tmp/err")"
fi
# sb eval prints the same count: A-SRPT's forest work is its window's rows
# times the trees grown (100 a training, a tenth of them for the renewing
# variant after the first), FIFO counts none
for p in asrpt asrpt-hist; do
	expect 0 "^work: [0-9]* tree-rows$" -- "$SB" eval cluster --w1 400 --policy "$p"
	sed -n 's/^work: \([0-9]*\) tree-rows$/\1/p' "$tmp/out" > "$tmp/work.$p"
done
[ "$(cat "$tmp/work.asrpt")" -gt "$(cat "$tmp/work.asrpt-hist")" ] 2>/dev/null && ok ||
	bad "the renewing forest grew no fewer tree-rows than the exact one: $(cat "$tmp/work.asrpt") vs $(cat "$tmp/work.asrpt-hist")"
expect 0 "valid: yes" -- "$SB" eval cluster --w1 100 --policy fifo
grep -q "^work:" "$tmp/out" && bad "fifo counts work: $(grep '^work:' "$tmp/out")" || ok

# eval cluster: bad inputs exit 2 with a message naming what is wrong
expect 2 "give one job set" -- "$SB" eval cluster --policy fifo
expect 2 "give one job set" -- "$SB" eval cluster --w1 10 --jobs "$tmp/none.csv" --policy fifo
expect 2 "policy is required" -- "$SB" eval cluster --w1 10
expect 2 "unknown cluster 'nosuch' (known: testbed" -- "$SB" eval cluster --w1 10 --cluster nosuch --policy fifo
expect 2 "not a registered cluster scheduler (schedulers: .*fifo" -- "$SB" eval cluster --w1 10 --policy nosuch
expect 2 "not a registered cluster placer (placers: .*packed" -- "$SB" eval cluster --w1 10 --policy fifo+nosuch
expect 2 "'nosuch' is not a parameter of scheduler tiresias (queues, starve, fitfirst, qmin)" -- "$SB" eval cluster --w1 10 --policy tiresias --set nosuch=1
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
	# trace replay reproduces Tiresias' simulator (README: 219.05 s, 35 preemptions)
	expect 0 "jct_mean: 219.05$" -- "$SB" eval cluster --tiresias data/tiresias/60_job.csv \
		--cluster testbed --replay --history data/tiresias/yarn-gput1000.csv --policy tiresias-gittins
	grep -q "^mode: trace replay" "$tmp/out" && grep -q "^preemptions: 35$" "$tmp/out" && ok ||
		bad "eval cluster --replay: $(head -c 300 "$tmp/out")"
	# in the placement model, preempting at every decision (qmin=0) stops
	# runs during their restart overhead (4,791 preemptions); such a run
	# moves no bytes, and the inter-server bytes were once negative
	expect 0 "valid: yes" -- "$SB" eval cluster --tiresias data/tiresias/60_job.csv \
		--cluster testbed --history data/tiresias/yarn-gput1000.csv --policy tiresias-gittins \
		--set qmin=0
	awk '$1 == "inter_server_bytes:" { ok = $2 > 0 } END { exit !ok }' "$tmp/out" && ok ||
		bad "eval cluster tiresias-gittins: $(grep inter_server "$tmp/out")"
	grep -q "^preemptions: 4791$" "$tmp/out" && ok || bad "qmin=0: $(grep preemptions "$tmp/out")"
	# by default a run lasts at least one restart (README: 92 preemptions)
	expect 0 "jct_mean: 640.5870997$" -- "$SB" eval cluster --tiresias data/tiresias/60_job.csv \
		--cluster testbed --history data/tiresias/yarn-gput1000.csv --policy tiresias-gittins
	grep -q "^preemptions: 92$" "$tmp/out" && ok || bad "default qmin: $(grep preemptions "$tmp/out")"
fi
# replay needs measured durations; a history file is read strictly
expect 2 "job 0: field 'trace_runtime" -- "$SB" eval cluster --w1 10 --replay --policy fifo
printf 'duration\n100\nx\n' > "$tmp/hist.csv"
expect 2 "$tmp/hist.csv': line 3: field 'duration'" -- "$SB" eval cluster --w1 10 --history "$tmp/hist.csv" --policy tiresias-gittins

# conflicting options are refused, not ignored
printf 'arrival,model,d,t,p,iters\n0,resnet50,1,1,1,100\n' > "$tmp/one-job.csv"
expect 2 "--load applies to --w1 and --philly, not to --jobs" -- "$SB" eval cluster --jobs "$tmp/one-job.csv" --load 0.5 --policy fifo

# findings of the libFuzzer harnesses (tests/cluster/fuzz_*.c), minimised in
# tests/cluster/fuzz/regress/: each input and what it must give
reg=tests/cluster/fuzz/regress
# a job submitted in 2216: scaled to a load, arrivals lie ~1e14 s out and the
# checker rejected a correct run over the rounding of the absolute times
for s in 1 2 3; do
	expect 0 "valid: yes" -- "$SB" eval cluster --philly $reg/philly-far-submit.json --cluster testbed --policy fifo --load 0.8 --seed $s
done

# topology-and-interference mode (marl.md): runs, determinism, bad input
# training first: its results ($tmp/m1.h5) feed the --weights checks
same_points_across_jobs marl_train
# the weights are a detail dataset of their own, shown and exported by name
expect 0 "dataset weights: " -- "$SB" show "$tmp/m1.h5"
expect 0 "variant inputs arch ncritic nserv param w" -- "$SB" export "$tmp/m1.h5" weights --where variant=marl
expect 0 "valid: yes" -- "$SB" eval cluster --topo T1 --marl 40 --policy agents+marl --weights "$tmp/m1.h5" --seed 5
expect 0 "valid: yes" -- "$SB" eval cluster --topo T1 --marl 40 --policy agents+marl-flat --weights "$tmp/m1.h5" --seed 5
expect 2 "the flat network was trained for 16 servers, topology 'T2' has 8" -- "$SB" eval cluster --topo T2 --marl 40 --policy agents+marl-flat --weights "$tmp/m1.h5"
expect 2 "placer 'marl': no trained weights loaded" -- "$SB" eval cluster --topo T1 --marl 20 --policy agents+marl
expect 2 "placer 'consolidate' has no trained weights" -- "$SB" eval cluster --topo T1 --marl 20 --policy agents+consolidate --weights "$tmp/m1.h5"
expect 2 "stored weights '$tmp/none.h5'" -- "$SB" eval cluster --topo T1 --marl 20 --policy agents+marl --weights "$tmp/none.h5"
printf 'not hdf5\n' > "$tmp/bad.h5"
expect 2 "stored weights '$tmp/bad.h5'" -- "$SB" eval cluster --topo T1 --marl 20 --policy agents+marl --weights "$tmp/bad.h5"
expect 2 "need --topo" -- "$SB" eval cluster --w1 10 --policy fifo --weights "$tmp/m1.h5"
expect 2 "parameter 'only': 99 is not a training run" -- "$SB" run marl_train --quick --set only=99 --out "$tmp/x.h5"
same_points_across_jobs marl_jct marl_interf
expect 0 "valid: yes" -- "$SB" eval cluster --topo T1 --marl 60 --policy agents+consolidate --agents 3
grep -q "^interference: on$" "$tmp/out" && ok || bad "eval cluster --topo: no 'interference: on'"
expect 0 "predictor_mape_percent: " -- "$SB" eval cluster --topo T2 --marl 40 --policy agents+greedy-interf --pred-epochs 2
expect 0 "interference_slowdown_mean: 1.000000" -- "$SB" eval cluster --topo T3 --marl 40 --policy tiresias+spread --interference off
expect 2 "--interference 'maybe': expected on or off" -- "$SB" eval cluster --topo T1 --policy agents --interference maybe
expect 2 "--agents applies to the agents scheduler, not to 'fifo'" -- "$SB" eval cluster --topo T1 --policy fifo+spread --agents 2
expect 2 "need --topo" -- "$SB" eval cluster --w1 10 --policy fifo --agents 2
printf 'node dc dc -\nnode p pod dc\nnode r rack p\nnode s server r gpus=3\nnode k socket s\nnode w switch k\nnode g0 gpu w\nnode g1 gpu w\n' > "$tmp/topo-count.txt"
expect 2 "cannot read topology '$tmp/topo-count.txt': line 4: field 'gpus'" -- "$SB" eval cluster --topo "$tmp/topo-count.txt" --policy agents
printf 'bw rack 0\n' > "$tmp/topo-bw.txt"
expect 2 "cannot read topology '$tmp/topo-bw.txt': line 1: field 'bw'" -- "$SB" eval cluster --topo "$tmp/topo-bw.txt" --policy agents
printf 'node dc dc -\nnode a pod b\nnode b pod a\n' > "$tmp/topo-cycle.txt"
expect 2 "field 'parent': parent links form a cycle" -- "$SB" eval cluster --topo "$tmp/topo-cycle.txt" --policy agents
printf 'node dc dc -\nnode a shelf dc\n' > "$tmp/topo-level.txt"
expect 2 "line 2: field 'level': unknown level 'shelf'" -- "$SB" eval cluster --topo "$tmp/topo-level.txt" --policy agents
expect 2 "cannot read topology 'T9'" -- "$SB" eval cluster --topo T9 --policy agents
expect 2 "myopic-ilp places on at most 8 servers" -- "$SB" eval cluster --topo T1 --policy myopic-ilp
expect 0 "lb2_status: optimal" -- "$SB" eval cluster --topo T0 --marl 30 --policy myopic-ilp --bound
grep -q "^ratio_lb: 1\.[0-9]" "$tmp/out" && ok || bad "eval cluster --topo T0 --bound: $(grep ratio_lb "$tmp/out")"

# sb adversary cluster: the search against the exact non-preemptive optimum,
# its rejections and its bad input
expect 0 "worst_ratio: " -- "$SB" adversary cluster --policy fifo --iters 30
expect 0 "opt: .* (proven)" -- "$SB" adversary cluster --policy srpt-oracle --iters 30
expect 0 "versus: fifo" -- "$SB" adversary cluster --policy tiresias-gittins --versus fifo --iters 30
expect 0 "rejected: 0" -- "$SB" adversary cluster --policy fifo --set jobs=1 --exhaustive
expect 2 "topology" -- "$SB" adversary cluster --policy agents
expect 2 "jobs" -- "$SB" adversary cluster --policy fifo --set jobs=6
expect 2 "more than" -- "$SB" adversary cluster --policy fifo --set jobs=5 --exhaustive
