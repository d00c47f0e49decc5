# asrpt-F3: average JCT against offered load, W1 on 128 GPUs: mean and
# 95% CI over workloads (error bars), warm-up jobs excluded. Common random
# numbers: every load runs the same workloads with arrivals scaled, so a
# curve compares a policy with itself on the same jobs. Every policy in
# the file.
call "plots/style.gp" "10" "5.5"
set title "Average JCT vs load (W1, 128 GPUs, same workloads at every load; A-SRPT as reconstructed here)"
set xlabel "offered load"
set ylabel "average JCT (s, log scale; mean and 95% CI over workloads)"
set logscale y
set key outside right top
set bars small
# lower error bar: a log axis cannot show a mean minus a CI at or below 0;
# such bars are cut at a tenth of the mean
lo(m, c) = m - c > m / 10 ? m - c : m / 10
pols = system(sprintf("%s summary | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "load":"jct_mean_mean":(lo(column("jct_mean_mean"), column("jct_mean_ci95"))):(column("jct_mean_mean") + column("jct_mean_ci95")) \
       with yerrorlines lt i title word(pols,i)
call "plots/render.gp"
