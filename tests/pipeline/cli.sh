# tests/pipeline/cli.sh - command-line tests of the pipeline family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: pipeline ..." >&2

# determinism of the pipeline planners on random topologies
same_points_across_jobs pipeline_irregular pipeline_bound

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
# --topo SxG:INTRA[:INTER] (PipeDream's -n G S -b INTRA INTER): bad values name the option
expect 2 "--topo: topology '4x4:25e9': 4 servers need the inter-server bandwidth" -- "$SB" eval pipeline --model vgg19 --topo 4x4:25e9 --batch 64 --policy pipedream
expect 2 "--topo: .*intra-server bandwidth 'abc'" -- "$SB" eval pipeline --model vgg19 --topo 4x4:abc:3e9 --batch 64 --policy pipedream
expect 2 "--topo: .*inter-server bandwidth '0'" -- "$SB" eval pipeline --model vgg19 --topo 4x4:25e9:0 --batch 64 --policy pipedream
expect 2 "--topo: .*expected SERVERSxGPUS" -- "$SB" eval pipeline --model vgg19 --topo 0x4:1e9 --batch 64 --policy pipedream
expect 2 "--topo: .*512 GPUs, at most 256" -- "$SB" eval pipeline --model vgg19 --topo 8x64:1e9:1e9 --batch 64 --policy pipedream
expect 2 "--topo: .*one server has no inter-server" -- "$SB" eval pipeline --model vgg19 --topo 1x8:1e9:1e9 --batch 64 --policy pipedream
# the planner's own objective, upstream's with the per-server division
expect 0 "planner_objective_s: " -- "$SB" eval pipeline --model vgg19 --topo 4x8:25e9:3e9 --batch 256 --policy pipedream
expect 0 "topology: 4x8:25e9:3e9 (32 GPUs, 4 servers" -- "$SB" eval pipeline --model vgg19 --topo 4x8:25e9:3e9 --batch 256 --policy pipedream
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

# more microbatches than samples, and --opt on too large an instance, are
# refused before any planning
expect 2 "more than --batch" -- "$SB" eval pipeline --model bert-48 --topo config-a --batch 8 --microbatches 16 --policy sppr
expect 2 "too large for the exact optimum" -- "$SB" eval pipeline --model bert-48 --topo config-a --batch 64 --policy sppr --opt
# sb adversary pipeline: the search against the pipeline MILP proven
# optimal on a few layers and GPUs, and its bad input
expect 0 "worst_ratio: " -- "$SB" adversary pipeline --policy pipedream --iters 10
expect 0 "opt: .* s (proven)" -- "$SB" adversary pipeline --policy gpipe-balanced --iters 10
expect 0 "versus: dp" -- "$SB" adversary pipeline --policy piper --versus dp --iters 10
expect 2 "unknown planner 'nosuch'" -- "$SB" adversary pipeline --policy nosuch
expect 2 "gpus" -- "$SB" adversary pipeline --policy sppr --set gpus=4
expect 2 "more than" -- "$SB" adversary pipeline --policy sppr --set layers=5 --exhaustive
