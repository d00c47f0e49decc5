# marl-F8: average JCT of every scheme over the certified LP lower bound
# (time-indexed preemptive LP, GLPK, maxed with LB1) on 40-job traces on
# T0 (16 GPUs); mean and 95% CI over traces. 1 = the bound.
call "plots/style.gp" "9" "5"
set title "40-job traces on T0: average JCT / LP lower bound (marl.md setting, reconstructed)"
set ylabel "average JCT / lower bound"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics rotate by 30 right
# histograms do not autoscale to their whiskers: reach the highest mean + CI
stats data("summary", "") using (column("ratio_mean") + column("ratio_ci95")) nooutput
set yrange [0:STATS_max * 1.05]
set key top right
plot data("summary", "") using "ratio_mean":"ratio_ci95":xtic(1) lt 1 title "scheme", \
     1 with lines lt 8 dt 2 title "lower bound (= 1)"
call "plots/render.gp"
