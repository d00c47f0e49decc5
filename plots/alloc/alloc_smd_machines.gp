# smd-F2: mean job completion time of parameter-server jobs against the
# number of servers (mean and 95% CI over instances, the same jobs at every
# size), one line per policy. SMD and its layer-oblivious ablation are our
# reconstruction; Myopic-OPT (each SMD round solved to its optimum) is ours.
call "plots/style.gp" "9" "5"
set title "SMD model: mean JCT against the number of servers (reconstructed)"
set xlabel "servers (8 GPUs, 24 CPUs each)"
set ylabel "mean JCT (h, log scale)"
set logscale x 2
set logscale y
set key outside right top
# no interval from a single instance (a QUICK run): a zero-length bar, not nan
ci(x) = x == x ? x : 0
all = "smd smd-oblivious optimus drf fifo tetris srtf smd-myopic-opt"
# the policies with rows (Myopic-OPT is left out with --set myopic=0); each
# keeps its colour from its place in `all`
have = system(sprintf("%s summary | awk 'NR>1{print $2}' | sort -u | tr '\\n' ' '", EXPORT))
pols = ""
do for [i=1:words(all)] { if (strstrt(" ".have, " ".word(all,i)." ") > 0) { pols = pols." ".word(all,i) } }
lti(x) = sum [i=1:words(all)] (word(all,i) eq x ? i : 0)
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "servers":(column("jct_mean_mean")/3600):(ci(column("jct_mean_ci95"))/3600) with yerrorlines lt lti(word(pols,i)) title word(pols,i)
call "plots/render.gp"
