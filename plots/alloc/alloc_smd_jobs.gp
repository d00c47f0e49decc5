# smd-F1: mean job completion time of parameter-server jobs against their
# number (mean and 95% CI over instances), one line per policy. SMD and its
# layer-oblivious ablation are our reconstruction.
call "plots/style.gp" "9" "5"
set title "SMD model: mean JCT against the number of PS jobs (reconstructed)"
set xlabel "jobs (Poisson arrivals, 3 per 20-min slot)"
set ylabel "mean JCT (h)"
set logscale x 2
set yrange [0:*]
set key outside right top
# no interval from a single instance (a QUICK run): a zero-length bar, not nan
ci(x) = x == x ? x : 0
pols = "smd smd-oblivious optimus drf fifo tetris srtf"
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "jobs":(column("jct_mean_mean")/3600):(ci(column("jct_mean_ci95"))/3600) with yerrorlines lt i title word(pols,i)
call "plots/render.gp"
