# asrpt-F6: average JCT against an injected prediction error (noisy-oracle A-SRPT), W1 load 0.8 (mean over
# workloads; warm-up jobs excluded; 95% CIs are in the summary dataset). Every policy in the file.
load "plots/style.gp"
set title "Average JCT vs prediction error sigma (W1, load 0.8, 128 GPUs; A-SRPT as reconstructed here)"
set xlabel "sigma of the log-normal prediction error (noisy oracle only)"
set ylabel "average JCT (s, log scale; mean over workloads)"
set logscale y
set key outside right top
# the noisy oracle is one series over sigma (its label carries the noise
# of each point); every other policy ignores sigma: a flat reference
pols = system(sprintf("%s export %s summary | awk 'NR>1 && $2 !~ /^asrpt-oracle/ {print $2}' | sort -u | tr '\\n' ' '", SB, RESULTS))
oracle = sprintf("< %s export %s summary | awk 'NR == 1 || $2 ~ /^asrpt-oracle/' | sort -g -k1,1", SB, RESULTS)
plot oracle using "sigma":"jct_mean_mean" with linespoints lt 4 lw 3 title "asrpt-oracle+kl (noisy predictions)", \
     for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "sigma":"jct_mean_mean" with linespoints lt (i < 4 ? i : i + 1) title word(pols,i)
call "plots/render.gp" "9" "5"
