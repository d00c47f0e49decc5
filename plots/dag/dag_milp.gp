# tf-F7: makespan / relaxed-send MILP bound per policy and size (mean and
# 95% CI over random instances). >= 1 by construction.
call "plots/style.gp" "8" "5"
set title "Gap to the certified MILP bound (small random DAGs, 4 devices)"
set xlabel "ops in the DAG"
set ylabel "makespan / MILP lower bound"
set key outside right top font ",8"
# the smallest and largest sizes a little inside the frame, with their bars
set offsets graph 0.03, graph 0.03, graph 0.05, 0
pols = "hash+fifo cp+pct mite+pct dfs+pct icp+pct heft cpop etf m-etf fastest+fifo"
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "n":"ratio_milp_mean":"ratio_milp_ci95" with yerrorlines title word(pols,i), \
     1 with lines lt 8 dt 2 title "bound"
call "plots/render.gp"
