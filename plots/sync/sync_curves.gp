# adsp-F2: the authors' four CIFAR-10 panels on our substitute (seed 0):
# (a) global test loss against simulated time, (b) convergence time per
# scheme, (c) total SGD steps against time, (d) loss against steps. The
# dashed line is the convergence threshold (1.05 x the single-node loss).
# Compare shapes and order with adsp.md §6.2, not seconds. The curves of
# (a), (c), (d) are lines, each series narrower than the one drawn before
# it (so that one on top of another leaves it visible at its sides), with
# a marker only every few checks, staggered between series.
load "plots/style.gp"
pols = "bsp ssp fixed-adacomm adacomm adsp asp"
cw(p) = sprintf("--where rep=0 --where kind=curve --where policy=%s", p)
stats data("points", "--where rep=0 --where kind=scheme") using "target" nooutput
tgt = STATS_min
# checks per curve; a marker every mi of them (about 8 per curve, at
# least one per series in between), series i starting at check ms(i), so
# that markers of equal values (the first check) do not stack
stats data("points", "--where rep=0 --where kind=curve") using "t" nooutput
np = words(pols)
npts = STATS_records / np
mi = (npts < 2 * np) ? 1 : (int(npts / 8) > np ? int(npts / 8) : np)
ms(i) = int((i - 1) * mi / np)
lwi(i) = 2.6 - 0.25 * (i - 1)
set terminal pdfcairo size 12,8.5 font "DejaVu Sans,9"
set output OUT.".pdf"
set style data lines
set xtics norotate
set autoscale y
unset logscale y
set multiplot layout 2,2
set key top right
set logscale y
set title "(a) global test loss (log scale)"
set xlabel "simulated time (s)"
set ylabel "test loss"
plot for [i=1:words(pols)] data("points", cw(word(pols,i))) using "t":"loss" \
       with lines lt i lw lwi(i) notitle, \
     for [i=1:words(pols)] data("points", cw(word(pols,i))) using "t":"loss" \
       every mi::ms(i) with points lt i notitle, \
     for [i=1:words(pols)] keyentry with linespoints lt i lw lwi(i) title word(pols,i), \
     tgt with lines lt 8 dt 2 lw 1.5 title "threshold"
set title "(b) time to converge (10 checks below the threshold)"
set xlabel ""
set ylabel "simulated time (s)"
set style data histograms
set style fill solid 0.8 noborder   # (dashed bar borders from the line types read badly)
set boxwidth 0.8
unset logscale y
set yrange [0:*]
set xtics rotate by -30
plot data("points", "--where rep=0 --where kind=scheme") using "conv_eff":xtic(stringcolumn("policy")) lt 1 notitle
set style data lines
set xtics norotate
set autoscale y
set title "(c) SGD steps done"
set xlabel "simulated time (s)"
set ylabel "steps (all workers)"
set key top left
plot for [i=1:words(pols)] data("points", cw(word(pols,i))) using "t":"csteps" \
       with lines lt i lw lwi(i) notitle, \
     for [i=1:words(pols)] data("points", cw(word(pols,i))) using "t":"csteps" \
       every mi::ms(i) with points lt i notitle, \
     for [i=1:words(pols)] keyentry with linespoints lt i lw lwi(i) title word(pols,i)
set logscale y
set title "(d) loss against steps (log scale)"
set xlabel "steps (all workers)"
set ylabel "test loss"
set key top right
plot for [i=1:words(pols)] data("points", cw(word(pols,i))) using "csteps":"loss" \
       with lines lt i lw lwi(i) notitle, \
     for [i=1:words(pols)] data("points", cw(word(pols,i))) using "csteps":"loss" \
       every mi::ms(i) with points lt i notitle, \
     for [i=1:words(pols)] keyentry with linespoints lt i lw lwi(i) title word(pols,i), \
     tgt with lines lt 8 dt 2 lw 1.5 title "threshold"
unset multiplot
call "plots/render.gp"
