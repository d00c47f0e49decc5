# asrpt-F11: where the cluster's capacity goes under each reading of
# A-SRPT's dispatch, W1 at load 0.8 on 128 GPUs (mean and 95% CI over
# workloads): average JCT (left) and the capacity account (right): the
# offered load, the load the cluster really carried (scattered placements
# run slower), GPU-seconds idle while a waiting job had room by count, and
# the share of GPU-seconds on scattered placements. Two panels, so this
# script opens its PDF itself.
load "plots/style.gp"
set terminal pdfcairo size 13,5.6 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2 title "Where capacity goes: readings of A-SRPT's step D (W1, load 0.8, 128 GPUs; A-SRPT as reconstructed here)"
set style data histograms
set style fill solid 0.8 border -1
set xtics rotate by 40 right
set style histogram errorbars gap 1 lw 1
set boxwidth 0.8
set ylabel "average JCT (s, log scale; mean and 95% CI)"
# the top of the axis above the highest interval (histogram bars do not
# widen the autoscaled range for their error bars)
stats data("summary", "") using (column("jct_mean_mean") + column("jct_mean_ci95")) nooutput
set logscale y
set yrange [*:STATS_max * 1.5]
unset key
plot data("summary", "") using "jct_mean_mean":"jct_mean_ci95":xtic(1) lt 1
unset logscale y
set ylabel "share of the cluster's GPU-seconds over the arrival span"
mx(a, b) = a > b ? a : b
top(c) = column(c."_mean") + column(c."_ci95")
stats data("summary", "") using (mx(mx(top("load_ref"), top("load_eff")), mx(top("idle_fit"), top("spread")))) nooutput
set yrange [0:STATS_max * 1.08]
set style histogram errorbars gap 1 lw 1
set key outside top center horizontal maxcols 2 font ",9"
plot data("summary", "") using "load_ref_mean":"load_ref_ci95":xtic(1) lt 9 title "offered load", \
     "" using "load_eff_mean":"load_eff_ci95" lt 4 title "carried load (slowdowns included)", \
     "" using "idle_fit_mean":"idle_fit_ci95" lt 2 title "idle while a waiting job had room", \
     "" using "spread_mean":"spread_ci95" lt 3 title "share of busy GPU-s on scattered placements"
unset multiplot
call "plots/render.gp"
