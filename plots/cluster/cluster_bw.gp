# asrpt-F5: average JCT against inter-server bandwidth (placement ablations), W1 load 0.8 (mean over
# workloads; warm-up jobs excluded; 95% CIs are in the summary dataset). Every policy in the file.
call "plots/style.gp" "9" "5"
set title "Average JCT vs inter-server bandwidth (W1, load 0.8, 128 GPUs; A-SRPT as reconstructed here)"
set xlabel "inter-server bandwidth per server (GB/s, log scale)"
set logscale x
set ylabel "average JCT (s, log scale; mean over workloads)"
set logscale y
set key outside right top
pols = system(sprintf("%s summary | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "b_out_gbps":"jct_mean_mean" with linespoints lt i title word(pols,i)
call "plots/render.gp"
