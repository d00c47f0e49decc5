# adsp-F4: convergence time at M and 2M workers (left) and each
# scheme's convergence time over ADSP's at the same seed and size (right;
# above 1 = slower than ADSP). Mean and 95% CI over seeds (no bar with one
# seed). The authors' bars (18 and 36 EC2 workers, adsp.md §6.5) show
# ADSP's lead persisting at scale; compare that, not the seconds.
load "plots/style.gp"
pols = "fixed-adacomm adsp bsp ssp"
ci(x) = x == x ? x : 0
w(p) = "--where policy=".p
# series side by side at each M, so that their error bars do not hide each other
dx(i) = 0.25 * (i - (words(pols) + 1) / 2.0)
set bars small
set terminal pdfcairo size 11,4.5 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2
set title "Time to converge against the number of workers"
set xlabel "workers M"
set ylabel "simulated time to convergence (s)"
set yrange [0:*]
set key bottom left
plot for [i=1:words(pols)] data("summary", w(word(pols,i))) \
       using (column("workers") + dx(i)):"conv_eff_mean":(ci(column("conv_eff_ci95"))) with yerrorlines lt i title word(pols,i)
set title "Slowdown against ADSP (same seed, same M)"
set ylabel "convergence time / ADSP's"
set yrange [0.8:*]
set key top left
plot for [i=1:words(pols)] data("summary", w(word(pols,i))) \
       using (column("workers") + dx(i)):"vs_adsp_mean":(ci(column("vs_adsp_ci95"))) with yerrorlines lt i title word(pols,i), \
     1 with lines lt 8 dt 2 notitle
unset multiplot
call "plots/render.gp"
