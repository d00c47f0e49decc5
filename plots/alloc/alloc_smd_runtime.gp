# smd-F5: wall-clock time to decide one round against the queued jobs
# (timing dataset: depends on the machine and its load), one point per
# round (the line: the mean per size): SMD's heuristic, its LP-outer variant, and the MMKP ILP solved by
# GLPK from scratch (node-limited: its status is in the points dataset).
call "plots/style.gp" "9" "5"
set title "SMD: time to decide one round (wall clock, reconstructed)"
set xlabel "jobs in queue"
set ylabel "runtime per round (s, wall clock, log scale)"
set logscale y
set format y "%g"
set key top left
ms = "smd smd-lp-outer ilp"
# one point per round, the line through the mean at each size
plot for [i=1:words(ms)] data("timing", "--where method=".word(ms,i)) \
       using "jobs":(column("seconds") > 0 ? column("seconds") : 1e-6) with points lt i notitle, \
     for [i=1:words(ms)] data("timing", "--where method=".word(ms,i)) \
       using "jobs":(column("seconds") > 0 ? column("seconds") : 1e-6) smooth unique with lines lt i title word(ms,i)." (mean)"
call "plots/render.gp"
