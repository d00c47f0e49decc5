# adsp-F5 / ADSP+'s grid: convergence time of ADSP with a fixed commit rate
# ΔC (log axis; mean and 95% CI over seeds) and, as a horizontal line, of
# ADSP with its online search (the mark: the ΔC it settled on, mean over
# seeds). The authors' curve is a shallow U (adsp.md §6.6a); the claim is
# that the online search lands within 15% of the grid's best.
call "plots/style.gp" "9" "5"
ci(x) = x == x ? x : 0
stats data("points", "--where policy=adsp") using "conv_eff" nooutput
online = STATS_mean
stats data("points", "--where policy=adsp") using "dc" nooutput
online_dc = STATS_mean
set title "Convergence time against the commit rate"
set xlabel "commits per worker per check period (ΔC, log scale)"
set ylabel "simulated time to convergence (s)"
set logscale x
set xrange [0.2:12]
set xtics (0.25, 0.5, 1, 2, 3, 4, 6, 10)
set yrange [0:*]
set key bottom right
set bars small
set label 1 sprintf("online search settled at ΔC = %.2g", online_dc) at online_dc, online \
    point lt 2 pt 7 ps 1.5 offset 1,-4   # below the error bars
plot data("summary", "--where policy=adsp-plus") using "dc":"conv_eff_mean":(ci(column("conv_eff_ci95"))) \
       with yerrorlines lt 1 title "ADSP+ (fixed ΔC, the offline grid)", \
     online with lines lt 2 title "ADSP (online search), mean"
call "plots/render.gp"
