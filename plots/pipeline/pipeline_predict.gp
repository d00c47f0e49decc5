# dapple-F5: DAPPLE's own predictions of its plans' iteration times (its
# analytic latency with the pivot stage, and its exact recursive 1F1B
# timeline with transfers as stages) against the project's simulated time,
# every model x configuration x batch of the figure set; on the diagonal
# DAPPLE's model and ours agree. Both DAPPLE planners.
call "plots/style.gp" "7" "6.5"
set logscale xy
set format xy "%g"
set xlabel "simulated iteration time (s, log scale)"
set ylabel "DAPPLE's prediction (s, log scale)"
set key top left font ",8"
set size ratio -1
set title "DAPPLE's cost model vs the simulator, on DAPPLE's plans"
plot data("points", "--where planner=dapple --where feasible=1") using "iter_time":"estimate" with points lt 1 pt 7 title "dapple: analytic latency L", \
     data("points", "--where planner=dapple --where feasible=1") using "iter_time":"recursive" with points lt 2 pt 5 title "dapple: recursive timeline", \
     data("points", "--where planner=dapple-hpgo --where feasible=1") using "iter_time":"estimate" with points lt 3 pt 9 title "dapple-hpgo: analytic latency L", \
     data("points", "--where planner=dapple-hpgo --where feasible=1") using "iter_time":"recursive" with points lt 4 pt 11 title "dapple-hpgo: recursive timeline", \
     x with lines lt 8 dt 2 title "prediction = simulation"
call "plots/render.gp"
