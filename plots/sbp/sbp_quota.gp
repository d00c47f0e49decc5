# oneflow-F10: throughput of a 4-actor chain (3, 5, 10, 4 us) against the
# register quota: the DES (mean and 95% CI; with and without log-normal
# jitter sigma 0.1) and the period formula. Quota 0 on the axis means
# unbounded (drawn at 16).
call "plots/style.gp" "8" "5"
set title "Actor chain: throughput vs register quota"
set xlabel "register quota r per slot (16: unbounded)"
set ylabel "pieces / s"
set logscale x 2
set key bottom right
q(x) = x == 0 ? 16 : x
plot data("summary", "--where sigma=0") using (q(column("quota"))):"throughput_mean" with linespoints lt 1 title "DES, no jitter", \
     data("summary", "--where sigma=0.1") using (q(column("quota"))):"throughput_mean":"throughput_ci95" with yerrorlines lt 2 title "DES, jitter 0.1", \
     data("points", "--where rep=0") using (q(column("quota"))):"analytic" with lines lt 8 dt 2 title "period formula"
call "plots/render.gp"
