# asrpt-F10: wall-clock time per scheduling decision against the mean
# number of active jobs (W1 of 500-4000 jobs at load 0.9 on 512 GPUs).
# Wall-clock values: machine-dependent, from the `timing` dataset. Points
# are joined in order of x (smooth unique), not in sweep order.
call "plots/style.gp" "9" "5"
set title "Decision time vs active jobs (wall clock, this machine)"
set xlabel "mean active jobs per decision (log scale)"
set ylabel "microseconds per decision (log scale)"
set logscale xy
set key outside right top
pols = system(sprintf("%s summary | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("timing", "--where policy=".word(pols,i)) \
       using "active_mean":"us_per_decision" smooth unique with linespoints lt i title word(pols,i)
call "plots/render.gp"
