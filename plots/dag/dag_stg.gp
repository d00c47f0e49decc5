# tf-F8: makespan / certified lower bound on the STG graphs, per policy
# and processor count (mean and 95% CI over the STG files).
call "plots/style.gp" "8" "5"
set title "STG graphs: makespan over the best certified lower bound"
set xlabel "processors"
set ylabel "makespan / lower bound (1 = optimal)"
set logscale x 2
set xrange [1.5:20]
set key outside right top
pols = "heft cpop etf cp+pct mite+pct dfs+pct hash+fifo"
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "procs":"ratio_lb_mean":"ratio_lb_ci95" with yerrorlines title word(pols,i), \
     1 with lines lt 8 dt 2 title "bound"
call "plots/render.gp"
