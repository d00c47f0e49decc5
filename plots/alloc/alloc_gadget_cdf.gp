# gadget-F2: distribution of job completion times, one panel per objective,
# one curve per policy, as the fraction of all jobs (the curve stays below 1
# by the share still unfinished at the horizon). GADGET-R reconstructed.
load "plots/style.gp"
utils = "exc ene fair"
pols = "gadget-r gadget-pd gadget-nolocality fifo drf tetris optimus tiresias firstfit"
# jobs per (objective, policy), from the summary's counts, read in one call
# ("-" where the summary has no such row: a series with no points)
array NJ[27]
njs = system(sprintf("%s summary | awk -v us='%s' -v ps='%s' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } { n[$c[\"util\"], $c[\"policy\"]] = $c[\"n\"] } END { nu = split(us, u, \" \"); np = split(ps, p, \" \"); for (a = 1; a <= nu; a++) for (b = 1; b <= np; b++) print ((u[a], p[b]) in n ? n[u[a], p[b]] : \"-\") }'", EXPORT, utils, pols))
do for [k=1:27] { NJ[k] = word(njs, k) eq "-" ? NaN : real(word(njs, k)) }
set xlabel "job completion time (h, log scale)"
set logscale x
set yrange [0:1]
TITLE = "GADGET model: job completion times (reconstructed)"
YLABEL = "fraction of jobs completed"
PANEL = 'plot for [i=1:words(pols)] data("points", "--where util=".word(utils,u)." --where policy=".word(pols,i)." --where finished=1") using (column("jct")/3600):(1.0/NJ[(u-1)*9+i]) smooth cumulative with lines lt i title word(pols,i)'
load "plots/alloc/panels3.gp"
