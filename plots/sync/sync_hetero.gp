# adsp-F3: convergence time against heterogeneity H (left) and each
# scheme's convergence time over ADSP's at the same seed and H (right;
# above 1 = slower than ADSP). Mean and 95% CI over seeds (no bar with one
# seed). The authors' bars show ADSP's lead over Fixed ADACOMM growing
# with H (adsp.md §6.4); compare that trend, not the seconds.
load "plots/style.gp"
pols = "fixed-adacomm adsp bsp ssp"
ci(x) = x == x ? x : 0
w(p) = "--where policy=".p
# series side by side at each H, so that their error bars do not hide each other
dx(i) = 0.025 * (i - (words(pols) + 1) / 2.0)
set bars small
set xrange [1.3:3.35]
set xtics (1.45, 2.0, 2.6, 3.2)
set terminal pdfcairo size 11,4.5 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2
set title "Time to converge against heterogeneity"
set xlabel "heterogeneity H = mean speed / slowest speed"
set ylabel "simulated time to convergence (s)"
set yrange [0:*]
set key bottom left
plot for [i=1:words(pols)] data("summary", w(word(pols,i))) \
       using (column("h") + dx(i)):"conv_eff_mean":(ci(column("conv_eff_ci95"))) with yerrorlines lt i title word(pols,i)
set title "Slowdown against ADSP (same seed, same H)"
set ylabel "convergence time / ADSP's"
set yrange [0.8:*]
set key top left
plot for [i=1:words(pols)] data("summary", w(word(pols,i))) \
       using (column("h") + dx(i)):"vs_adsp_mean":(ci(column("vs_adsp_ci95"))) with yerrorlines lt i title word(pols,i), \
     1 with lines lt 8 dt 2 notitle
unset multiplot
call "plots/render.gp"
