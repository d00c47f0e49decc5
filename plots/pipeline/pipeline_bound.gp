# pipeplan-F4: simulated iteration time over the exact optimum OPT of the
# MILP's plan space (one pipeline copy, no re-computation, no overlap),
# mean over random instances, per planner and model size; and over the
# plan-independent lower bound. Planners whose plans leave that space
# (2BW's copies, GPipe's re-computation, DP's overlap) can go below 1 in
# the left panel: OPT does not bound them. SPP-R = our reconstruction.
# Bars start at 0; the dashed line marks a ratio of 1.
load "plots/style.gp"
wide(v) = sprintf("< %s summary | sh scripts/pivot planner layers %s", EXPORT, v)
ncol = int(system(sprintf("%s summary | sh scripts/pivot planner layers ratio_opt_mean | head -1 | wc -w", EXPORT)))
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 noborder
set xtics rotate by 30 right
set key top left font ",8" title "layers"
set terminal pdfcairo size 12,4.5 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 1,2 title "Small instances (4 GPUs): distance to the optimum and to the lower bound"
set title "iteration time / OPT of the MILP's plan space"
set ylabel "iteration time / OPT (ratio)"
set yrange [0:*]
plot for [c=2:ncol] wide("ratio_opt_mean") using c:xtic(1) title columnheader(c) lt (c-1), \
     1 with lines lt 8 dt 2 notitle
set title "iteration time / plan-independent lower bound"
set ylabel "iteration time / lower bound (ratio)"
set yrange [0:*]
plot for [c=2:ncol] wide("ratio_lb_mean") using c:xtic(1) title columnheader(c) lt (c-1), \
     1 with lines lt 8 dt 2 notitle
unset multiplot
call "plots/render.gp"
