# asrpt-F8: total flow time of every scheduler over the best certified
# lower bound on tiny instances (3 x 4 GPUs, 6 jobs): max(LB1, LB2), and
# for runs without preemption also the non-preemptive ILP bound L (mean
# and 95% CI over instances). 1 = optimal.
call "plots/style.gp" "9" "5"
set title "Tiny instances: total flow time / certified lower bound (A-SRPT as reconstructed here)"
set ylabel "flow time / lower bound"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics rotate by 45 right
set yrange [0:*]   # from 0: a ratio axis cut at 0.9 exaggerates differences
unset key
plot data("summary", "") using "ratio_mean":"ratio_ci95":xtic(1) lt 1, \
     1 with lines lt 8 dt 2 title "lower bound (= 1)"
call "plots/render.gp"
