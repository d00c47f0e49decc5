# tf-F2: makespan against edge count of layered DAGs (mean and 95% CI
# over seeded graphs), 50 devices. Reads the summary dataset.
load "plots/style.gp"
set title "Makespan vs edge density (layered DAGs, 50 devices)"
set xlabel "edges (log scale)"
set ylabel "makespan (time units, log scale)"
set logscale xy
set key outside right top
pols = "hash+fifo hash+pct cp+fifo cp+pct cp+msr mite+pct batchsplit+pct dfs+pct heft fastest+fifo"
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "edges_mean":"makespan_mean":"makespan_ci95" with yerrorlines title word(pols,i), \
     data("summary", "--where policy=cp+pct") using "edges_mean":"lb_mean" \
       with lines lt 8 dt 3 title "lower bound"
call "plots/render.gp" "8" "5"
