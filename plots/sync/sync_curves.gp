# adsp-F2: the authors' four CIFAR-10 panels on our substitute (seed 0):
# (a) global test loss against simulated time, (b) convergence time per
# scheme, (c) total SGD steps against time, (d) loss against steps. The
# dashed line is the convergence threshold (1.05 x the single-node loss).
# Compare shapes and order with adsp.md §6.2, not seconds.
load "plots/style.gp"
pols = "bsp ssp fixed-adacomm adacomm adsp asp"
cw(p) = sprintf("--where rep=0 --where kind=curve --where policy=%s", p)
stats data("points", "--where rep=0 --where kind=scheme") using "target" nooutput
tgt = STATS_min
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
       with linespoints lt i title word(pols,i), \
     tgt with lines lt 8 dt 2 title "threshold"
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
       with linespoints lt i title word(pols,i)
set logscale y
set title "(d) loss against steps (log scale)"
set xlabel "steps (all workers)"
set ylabel "test loss"
set key top right
plot for [i=1:words(pols)] data("points", cw(word(pols,i))) using "csteps":"loss" \
       with linespoints lt i title word(pols,i), \
     tgt with lines lt 8 dt 2 title "threshold"
unset multiplot
call "plots/render.gp"
