# dapple-F5: DAPPLE's own predictions of its plans' iteration times (its
# analytic latency with the pivot stage, and its exact recursive 1F1B
# timeline with transfers as stages) against the project's simulated time,
# every model x configuration x batch of the figure set; on the diagonal
# DAPPLE's model and ours agree. Both DAPPLE planners. The two predictions
# often coincide (for dapple they are mostly equal): the analytic ones are
# large hollow markers, the recursive ones small filled markers drawn on
# top, so that every series stays visible.
call "plots/style.gp" "7" "6.5"
dp(p) = data("points", sprintf("--where planner=%s --where feasible=1", p))
# one range for both axes (equal scales), a little wider than the data
stats dp("dapple") using "iter_time":"estimate" nooutput
lo = (STATS_min_x < STATS_min_y) ? STATS_min_x : STATS_min_y
hi = (STATS_max_x > STATS_max_y) ? STATS_max_x : STATS_max_y
stats dp("dapple") using "iter_time":"recursive" nooutput
lo = (STATS_min_y < lo) ? STATS_min_y : lo
hi = (STATS_max_y > hi) ? STATS_max_y : hi
stats dp("dapple-hpgo") using "iter_time":"estimate" nooutput
lo = (STATS_min_x < lo) ? STATS_min_x : lo
lo = (STATS_min_y < lo) ? STATS_min_y : lo
hi = (STATS_max_x > hi) ? STATS_max_x : hi
hi = (STATS_max_y > hi) ? STATS_max_y : hi
stats dp("dapple-hpgo") using "iter_time":"recursive" nooutput
lo = (STATS_min_y < lo) ? STATS_min_y : lo
hi = (STATS_max_y > hi) ? STATS_max_y : hi
set logscale xy
set xrange [lo/1.6:hi*1.6]
set yrange [lo/1.6:hi*1.6]
set format xy "%g"
set xlabel "simulated iteration time (s, log scale)"
set ylabel "DAPPLE's prediction (s, log scale)"
set key top left font ",8"
set size ratio -1
set title "DAPPLE's cost model vs the simulator, on DAPPLE's plans"
# the diagonal first, under the markers; its key entry last
plot x with lines lt 8 dt 2 lw 1 notitle, \
     dp("dapple") using "iter_time":"estimate" with points lt 1 pt 6 ps 2.0 lw 1.5 title "dapple: analytic latency L", \
     dp("dapple-hpgo") using "iter_time":"estimate" with points lt 3 pt 8 ps 1.5 lw 1.5 title "dapple-hpgo: analytic latency L", \
     dp("dapple") using "iter_time":"recursive" with points lt 2 pt 5 ps 0.7 title "dapple: recursive timeline", \
     dp("dapple-hpgo") using "iter_time":"recursive" with points lt 4 pt 11 ps 0.6 title "dapple-hpgo: recursive timeline", \
     keyentry with lines lt 8 dt 2 lw 1 title "prediction = simulation"
call "plots/render.gp"
