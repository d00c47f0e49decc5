# asrpt-F9: each placer's inter-server cut against the exact placement ILP
# (GLPK), jobs of 2-16 GPUs on 4 servers of 8 GPUs with random occupancy:
# the share of the job's bytes that cross servers beyond the optimum (mean
# and 95% CI over instances; 0 = optimal).
call "plots/style.gp" "9" "5"
set title "Placement vs the exact ILP (A-SRPT's KL placement as reconstructed here)"
set xlabel "GPUs of the job (log scale)"
set ylabel "excess cut / all bytes of the job"
set logscale x 2
set xrange [1.5:20]
# the share cannot be negative: a confidence interval reaching below 0 is
# drawn down to 0, and the axis starts a little below 0 so that the zeros
# (the exact placement) and those bars stay off the frame
lo(m, c) = m - c > 0 ? m - c : 0
set yrange [*:*]
set autoscale yfix
set offsets 0, 0, graph 0.06, graph 0.05
set key outside right top
pols = system(sprintf("%s summary | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("summary", "--where placer=".word(pols,i)) \
       using "gpus":"excess_mean":(lo(column("excess_mean"), column("excess_ci95"))):(column("excess_mean") + column("excess_ci95")) \
       with yerrorlines lt i title word(pols,i)
call "plots/render.gp"
