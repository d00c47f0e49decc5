# marl-F5: average JCT on T2 and T3 at load 0.7 (mean and 95% CI over
# held-out traces) of the scheduler trained on T1 and run unchanged
# ("transferred"), the same recipe retrained on the target topology, and
# every heuristic; both nets also sampling their actions ("-sampled").
# Reconstructed (the paper is abstract-only).
call "plots/style.gp" "10" "5"
set title "Other topologies, load 0.7: trained on T1 vs retrained (marl.md setting, reconstructed)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by 30 right
# log scale: a policy that collapses into deferral (the greedy retrained
# net on T2 at full size) is 30x the others, which a linear axis flattens
stats data("summary", "") using (column("jct_mean_mean") + column("jct_mean_ci95")) nooutput
ymax = STATS_max
stats data("summary", "") using "jct_mean_mean" nooutput
set logscale y
set yrange [STATS_min / 2 : ymax * 3]
set ylabel "average JCT (s, log scale)"
set key top left
plot data("summary", "--where topo=T2") using "jct_mean_mean":"jct_mean_ci95":xtic(2) lt 1 title "T2 (8 servers x 8 GPUs)", \
     data("summary", "--where topo=T3") using "jct_mean_mean":"jct_mean_ci95" lt 2 title "T3 (32 servers x 4 GPUs)"
call "plots/render.gp"
