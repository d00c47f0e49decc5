# asrpt-F4: average JCT against cluster size, W1 at load 0.8 (mean over
# workloads; warm-up jobs excluded; 95% CIs are in the summary dataset). Every policy in the file.
call "plots/style.gp" "9" "5"
set title "Average JCT vs cluster size (W1, load 0.8; A-SRPT as reconstructed here)"
set xlabel "GPUs in the cluster (log scale)"
set logscale x 2
set ylabel "average JCT (s, log scale; mean over workloads)"
set logscale y
set key outside right top
pols = system(sprintf("%s summary | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "cluster_gpus":"jct_mean_mean" with linespoints lt i title word(pols,i)
call "plots/render.gp"
