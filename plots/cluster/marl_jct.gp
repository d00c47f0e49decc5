# marl-F1: average JCT of every heuristic and the learned placers (marl, marl-a2c) on T1 at load 0.7 (mean and 95%
# CI over held-out synthetic Philly-like traces). Topology-and-interference
# mode of marl.md: the setting is our reconstruction (the paper is
# abstract-only); the learned placers run from marl_train's weights.
call "plots/style.gp" "9" "5"
set title "Average JCT on T1 (64 GPUs), load 0.7 (marl.md setting, reconstructed)"
set ylabel "average JCT (s)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics rotate by 30 right
# histograms do not autoscale to their whiskers: reach the highest mean + CI
stats data("summary", "") using (column("jct_mean_mean") + column("jct_mean_ci95")) nooutput
set yrange [0:STATS_max * 1.05]
unset key
plot data("summary", "") using "jct_mean_mean":"jct_mean_ci95":xtic(1) lt 1
call "plots/render.gp"
