# asrpt-F6: average JCT against an injected prediction error (noisy-oracle A-SRPT), W1 load 0.8: mean and
# 95% CI over workloads (error bars on the two noisy-oracle series), warm-up jobs excluded. The noisy oracle
# runs with the headline dispatch D0 and with the strict list (dispatch=1) on the same noise draws; every
# other policy ignores sigma (flat references). Every policy in the file.
call "plots/style.gp" "10" "5.5"
set title "Average JCT vs prediction error sigma\n(W1, load 0.8, 128 GPUs; A-SRPT as reconstructed here)"
set xlabel "sigma of the log-normal prediction error (noisy oracle only)"
set ylabel "average JCT (s, log scale; mean and 95% CI over workloads)"
set logscale y
set key outside right top
set bars small
# sigma = 0 a little right of the y axis, its bars off the axis line
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
# a log axis cannot show a mean minus a CI at or below 0: such bars are cut at a tenth of the mean
lo(m, c) = m - c > m / 10 ? m - c : m / 10
pols = system(sprintf("%s summary | awk 'NR>1 && $2 !~ /^asrpt-oracle/ {print $2}' | sort -u | tr '\\n' ' '", EXPORT))
oracle(f) = sprintf("< %s summary | awk 'NR == 1 || ($2 ~ /^asrpt-oracle/ && %s)' | sort -g -k1,1", EXPORT, f)
plot oracle("$2 !~ /dispatch=1/") using "sigma":"jct_mean_mean":(lo(column("jct_mean_mean"), column("jct_mean_ci95"))):(column("jct_mean_mean") + column("jct_mean_ci95")) \
       with yerrorlines lt 4 lw 3 title "asrpt-oracle+kl, D0 (noisy)", \
     oracle("$2 ~ /dispatch=1/") using "sigma":"jct_mean_mean":(lo(column("jct_mean_mean"), column("jct_mean_ci95"))):(column("jct_mean_mean") + column("jct_mean_ci95")) \
       with yerrorlines lt 13 lw 3 title "asrpt-oracle+kl, strict D1 (noisy)", \
     for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "sigma":"jct_mean_mean" with linespoints lt (i < 4 ? i : i + 1) title word(pols,i)
call "plots/render.gp"
