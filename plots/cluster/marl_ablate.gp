# marl-T1 (ablation table, drawn): average JCT of every learned marl
# placer (PPO, A2C, single-agent, no GNN, independent critics, trained on
# true slowdowns, trained interference-blind; ours: the spec's GAE
# lambda = 0.95, no defer action, untrained) and greedy-interf on T1 at
# load 0.7; mean and 95% CI over held-out traces. Reconstructed (the
# paper is abstract-only; the ablations are marl.md §4.7).
call "plots/style.gp" "9" "5"
set title "Ablations on T1 (64 GPUs), load 0.7 (marl.md setting, reconstructed)"
set ylabel "average JCT (s)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics rotate by 30 right
stats data("summary", "") using (column("jct_mean_mean") + column("jct_mean_ci95")) nooutput
set yrange [0:STATS_max * 1.05]
unset key
plot data("summary", "") using "jct_mean_mean":"jct_mean_ci95":xtic(1) lt 1
call "plots/render.gp"
