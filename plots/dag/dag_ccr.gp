# tf-F3: makespan against the compute/tensor-size factor f on the LSTM
# structure (mean and 95% CI over cost draws), 50 devices.
call "plots/style.gp" "8" "5"
set title "Makespan vs compute/communication factor f (LSTM structure, 50 devices)"
set xlabel "f: ops = U{100..1000} x f, tensors U{100..1000} (log scale)"
set ylabel "makespan (time units, log scale)"
set logscale xy
set key outside right top
pols = "hash+fifo cp+pct cp+msr mite+pct dfs+pct icp+pct heft fastest+fifo"
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "f":"makespan_mean" with linespoints title word(pols,i), \
     data("summary", "--where policy=cp+pct") using "f":"lb_mean" \
       with lines lt 8 dt 3 title "lower bound"
call "plots/render.gp"
