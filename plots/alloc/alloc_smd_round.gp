# smd-F4: per seeded instance, cost over the optimum (>= 1). Left: one round
# of queued PS jobs, SMD's cost with the greedy outer selection and with the
# LP-outer one over the round's MMKP ILP optimum (GLPK). Right: the inner
# sum-of-ratios problem of three jobs that must all run, Dinkelbach's method
# as the spec states it and with the weighted update (ours), over the
# enumerated optimum; the two are shifted apart on x so that equal values
# stay visible. Everything SMD here is reconstructed. Two panels, so this
# script opens its PDF itself.
load "plots/style.gp"
set terminal pdfcairo size 13,5 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2 margins 0.07, 0.98, 0.12, 0.86 spacing 0.08 title "SMD (reconstructed): cost / optimum per seeded instance"
set title "one round: SMD / MMKP ILP optimum"
set xlabel "instance (seeded round)"
set ylabel "round cost / ILP optimum"
set yrange [0.995:*]
set offsets 0.5, 0.5, graph 0.25, 0
set key top left
plot data("points", "--where kind=round --where variant=greedy-outer") using "instance":"ratio" with points lt 1 pt 7 ps 1.2 title "greedy outer", \
     data("points", "--where kind=round --where variant=lp-outer") using "instance":"ratio" with points lt 2 pt 5 title "LP outer", \
     1 with lines lt 8 dt 2 title "optimum"
set title "inner sum-of-ratios, 3 jobs: Dinkelbach / enumeration"
# this panel's ratios reach far above 1: the floor sits 5% of the range
# below the optimum's line, so the points at 1 stay off the axis
set yrange [*:*]
set offsets 0.5, 0.5, graph 0.25, graph 0.05
set xlabel "instance (seeded, 3 jobs on one server)"
set ylabel "sum of ratios / enumerated optimum"
plot data("points", "--where kind=inner --where variant=dinkelbach") using ($1 - 0.15):"ratio" with points lt 3 pt 9 ps 1.2 title "Dinkelbach (spec)", \
     data("points", "--where kind=inner --where variant=dinkelbach-weighted") using ($1 + 0.15):"ratio" with points lt 4 pt 11 ps 1.2 title "weighted (ours)", \
     1 with lines lt 8 dt 2 title "optimum"
unset multiplot
call "plots/render.gp"
