# pslocality-F6: wall-clock runtime (timing dataset: depends on the machine
# and its load, not part of the deterministic results) of the PS-locality
# model's LP relaxation, all its randomized roundings (the experiment's
# `trials`: 1,000, or 200 in QUICK runs) and the
# node-limited ILP, against the model's size (columns), one point per
# instance.
call "plots/style.gp" "9" "5"
set title "PS-locality model: solver runtime against instance size (wall clock)"
set xlabel "model columns (log scale)"
set ylabel "runtime (s, wall clock, log scale)"
set logscale x
set logscale y
set format y "%g"
set key outside right top
meths = "lp rounding ilp"
names = "LP-relaxation all-roundings-(trials) ILP-(node-limited)"
plot for [i=1:3] data("timing", "--where method=".word(meths,i)) \
       using "cols":(column("seconds") > 0 ? column("seconds") : 1e-6) with points lt i ps 1.2 title word(names,i)
call "plots/render.gp"
