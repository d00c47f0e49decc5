# tests/sbp/cli.sh - command-line tests of the sbp family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: sbp ..." >&2

same_points_across_jobs sbp_planners sbp_pipeline

# eval sbp: a plan checked, with the ILP optimum and the gap
expect 0 "gap_opt: " -- "$SB" eval sbp --model gpt --layers 1 --tokens 2048 --hidden 512 --p 4 --policy greedy --bound
expect 0 "valid: yes" -- "$SB" eval sbp --model mlp --layers 2 --tokens 1024 --hidden 256 --hierarchy 2x4 --policy elim
# bad input exits 2 naming what is wrong
expect 2 "not a registered sbp planner" -- "$SB" eval sbp --model gpt --policy nosuch
expect 2 "p = 4" -- "$SB" eval sbp --model gpt --p 4 --hierarchy 2x4 --policy greedy
expect 2 "expected gpt or mlp" -- "$SB" eval sbp --model rnn --policy greedy
printf 'x input - 64x32\ny conv x 64x32\n' > "$tmp/bad-kind.txt"
expect 2 "line 2: field 'kind'" -- "$SB" eval sbp --graph "$tmp/bad-kind.txt" --p 2 --policy greedy
printf 'x input - 64x32\nw variable - 16x16\ny matmul x,w 64x16\n' > "$tmp/bad-shape.txt"
expect 2 "line 3" -- "$SB" eval sbp --graph "$tmp/bad-shape.txt" --p 2 --policy greedy
# findings of the libFuzzer harness tests/sbp/fuzz_graph.c, minimised in
# tests/sbp/fuzz/regress/: a second loop= on a line leaked the first name
expect 2 "loop-twice.txt': line 1: field 'loop': given twice" -- "$SB" eval sbp --graph tests/sbp/fuzz/regress/loop-twice.txt --p 2 --policy greedy
# ... and a batch of 1 on 2 devices: greedy pinned the input to S(0), which
# cannot split it, and failed as a run; greedy now keeps the input whole (B)
# where it cannot split, and the fixed strategies reject it as bad input
expect 0 "valid: yes" -- "$SB" eval sbp --graph tests/sbp/fuzz/regress/batch-one.txt --p 2 --policy greedy
expect 0 "valid: yes" -- "$SB" eval sbp --graph tests/sbp/fuzz/regress/batch-one.txt --hierarchy 2x2 --policy greedy
expect 2 "batch-one: line 1: op x (input): field 'shape': 1: no signature on 2 devices" -- "$SB" eval sbp --graph tests/sbp/fuzz/regress/batch-one.txt --p 2 --policy data-parallel
expect 2 "planner zero: .*line 1: op x" -- "$SB" eval sbp --graph tests/sbp/fuzz/regress/batch-one.txt --hierarchy 2x2 --policy zero
expect 2 "cycle" -- "$SB" eval sbp --model gpt --layers 1 --tokens 1024 --hidden 256 --p 2 --policy tree-dp
expect 2 "pieces" -- "$SB" run sbp_quota --quick --set pieces=5
# sb adversary sbp: the search against the proven ILP optimum on small
# layer graphs with and without backward ops, and its bad input
expect 0 "worst_ratio: " -- "$SB" adversary sbp --policy greedy --iters 20
expect 0 "opt: .* (proven)" -- "$SB" adversary sbp --policy elim --iters 20
expect 0 "versus: data-parallel" -- "$SB" adversary sbp --policy zero --versus data-parallel --iters 20
expect 0 "forward only" -- "$SB" adversary sbp --policy tree-dp --iters 20
expect 0 "rejected: 0" -- "$SB" adversary sbp --policy megatron --set layers=1 --exhaustive
expect 2 "unknown planner 'nosuch'" -- "$SB" adversary sbp --policy nosuch
expect 2 "layers" -- "$SB" adversary sbp --policy greedy --set layers=7
expect 2 "more than" -- "$SB" adversary sbp --policy greedy --set layers=6 --exhaustive
expect 2 "plans trees only" -- "$SB" adversary sbp --policy tree-dp --set backward=1
