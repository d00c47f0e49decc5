# asrpt-F2: distribution of job completion times, W1 at load 0.8 on 128
# GPUs (warm-up jobs excluded), one curve per policy.
call "plots/style.gp" "9" "5"
set title "JCT distribution (W1, load 0.8, 128 GPUs; A-SRPT as reconstructed here)"
set xlabel "job completion time (s, log scale)"
set ylabel "fraction of jobs"
set logscale x
set yrange [0:1]
set key outside right top
pols = system(sprintf("%s summary | awk 'NR>1 {print $1}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("points", "--where policy=".word(pols,i)) \
       using "jct":(1.0) smooth cnormal with lines title word(pols,i)
call "plots/render.gp"
