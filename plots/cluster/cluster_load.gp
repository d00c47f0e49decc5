# asrpt-F3: average JCT against offered load, W1 on 128 GPUs (mean over
# workloads; warm-up jobs excluded; 95% CIs are in the summary dataset). Every policy in the file.
load "plots/style.gp"
set title "Average JCT vs load (W1, 128 GPUs; A-SRPT as reconstructed here)"
set xlabel "offered load"
set ylabel "average JCT (s, log scale; mean over workloads)"
set logscale y
set key outside right top
pols = system(sprintf("%s export %s summary | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", SB, RESULTS))
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "load":"jct_mean_mean" with linespoints lt i title word(pols,i)
call "plots/render.gp" "9" "5"
