# tf-F2: makespan against the edge count of layered DAGs, 50 devices, as a
# ratio to the instance's lower bound (mean and 95% CI over seeded graphs;
# a CI's lower end is clipped at 1, since no schedule beats the bound). The
# ratio keeps every density on one linear axis, where a confidence interval
# is drawn as it is (on a log axis of raw makespans the wide intervals of
# few replicates ran into the axis floor). Reads the summary dataset.
call "plots/style.gp" "8" "5"
max(a, b) = a > b ? a : b
set title "Makespan over the lower bound vs edge density (layered DAGs, 50 devices)"
set xlabel "edges (log scale)"
set ylabel "makespan / lower bound (mean, 95% CI)"
set logscale x
set xtics ("100" 100, "200" 200, "500" 500, "1k" 1000, "2k" 2000, "5k" 5000, "10k" 1e4, \
           "20k" 2e4, "50k" 5e4, "100k" 1e5, "200k" 2e5, "500k" 5e5, "1M" 1e6)
set autoscale xfix
set offsets graph 0.03, graph 0.03, 0, 0
set yrange [0:*]
set key outside right top
pols = "hash+fifo hash+pct cp+fifo cp+pct cp+msr mite+pct batchsplit+pct dfs+pct heft fastest+fifo"
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "edges_mean":"ratio_lb_mean":(max(1, column("ratio_lb_mean") - column("ratio_lb_ci95"))):(column("ratio_lb_mean") + column("ratio_lb_ci95")) \
       with yerrorlines lt i title word(pols,i), \
     1 with lines lt 8 dt 3 title "lower bound (= 1)"
call "plots/render.gp"
