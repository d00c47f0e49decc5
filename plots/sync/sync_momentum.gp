# adsp-F6: left, convergence time of ADSP+ at a fixed commit rate against
# the PS's explicit momentum mu (mean and 95% CI over seeds); right, the
# authors' implicit momentum mu_impl(ΔC) = 1 - 1/(1 + (M-1) kappa / ΔC)
# with a line at the explicit mu that converged fastest on the left. The
# authors found the best explicit mu near 0.15 and read the crossing as
# the commit rate to aim for (adsp.md §6.6).
load "plots/style.gp"
ci(x) = x == x ? x : 0
best = system(sprintf("%s summary --where kind=sweep | awk 'NR > 1 && (b == \"\" || $5 < v) { b = $2; v = $5 } END { print b }'", EXPORT)) + 0
set bars small
set terminal pdfcairo size 11,4.5 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2
set title "Explicit PS momentum (ADSP+, fixed commit rate)"
set xlabel "explicit momentum mu"
set ylabel "simulated time to convergence (s)"
unset logscale x
set xrange [-0.03:0.93]
set yrange [0:*]
set key bottom right
plot data("summary", "--where kind=sweep") using "mu":"conv_eff_mean":(ci(column("conv_eff_ci95"))) \
       with yerrorlines lt 1 title "ADSP+ (mean over seeds)"
set title sprintf("Implicit momentum against the commit rate (line: best explicit mu = %g)", best)
set xlabel "commits per worker per check period (ΔC, log scale)"
set ylabel "momentum"
set logscale x
set xrange [0.2:12]
set xtics (0.25, 0.5, 1, 2, 3, 4, 6, 10)
set yrange [0:1]
set key top right
plot data("points", "--where kind=curve") using "dc":"mu" with linespoints lt 2 title "mu_impl(ΔC)", \
     best with lines lt 8 dt 2 title "best explicit mu"
unset multiplot
set xtics autofreq
call "plots/render.gp"
