# adsp-F8 and the time breakdown of adsp.md §6.9: left, convergence time
# against the delay injected into every commit round trip (mean and 95%
# CI over seeds; a run that did not converge counts the horizon, so its
# point is a lower bound); right, how a worker's time until convergence
# split into computation, blocking and communication, as fractions, per
# scheme and delay. The authors' expectation: barrier-based schemes
# degrade fastest.
load "plots/style.gp"
pols = "bsp ssp fixed-adacomm adacomm adsp"
ci(x) = x == x ? x : 0
w(p) = "--where policy=".p
set bars small
set terminal pdfcairo size 13,4.8 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2
set style data lines
set title "Time to converge against injected delay"
set xlabel "injected delay per commit round trip (s)"
set ylabel "simulated time to convergence (s)"
set xrange [-0.5:10.5]
set xtics (0, 2, 5, 10)
set yrange [0:*]
set key top left
plot for [i=1:words(pols)] data("summary", w(word(pols,i))) \
       using "delay":"conv_eff_mean":(ci(column("conv_eff_ci95"))) with yerrorlines lt i title word(pols,i)
set title "Where a worker's time went (fractions)"
set xlabel ""
set ylabel "fraction of time"
set autoscale x
set xtics rotate by -60 font ",8"
set yrange [0:1]
set key outside right top
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 noborder   # (dashed bar borders from the line types read badly)
set boxwidth 0.8
tot(a, b, c) = a + b + c > 0 ? a + b + c : 1
plot data("summary", "") using (column("compute_mean") / tot(column("compute_mean"), column("blocked_mean"), column("comm_mean"))):xtic(sprintf("%s d=%g", stringcolumn("policy"), column("delay"))) lt 2 title "computation", \
     "" using (column("blocked_mean") / tot(column("compute_mean"), column("blocked_mean"), column("comm_mean"))) lt 3 title "blocked", \
     "" using (column("comm_mean") / tot(column("compute_mean"), column("blocked_mean"), column("comm_mean"))) lt 4 title "communication"
unset multiplot
set xtics norotate font ",10"
unset style data
call "plots/render.gp"
