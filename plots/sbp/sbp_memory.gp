# oneflow-F11: live registers (16 MiB each) of a producer twice as fast
# as its consumer, unbounded quota vs quota k: back-pressure keeps memory
# flat at k. Unbounded draws in line type 5: quota 4 takes type 4. The y
# axis is logarithmic in 1 + live registers, so that the quotas (1, 2, 4)
# stand apart from one another and from 0 while the unbounded run (hundreds
# of registers) stays on the same axis, and the drop to 0 at the end of a
# run is still drawn (a plain log axis has no 0).
call "plots/style.gp" "8" "5"
ymax = system(sprintf("%s points | awk 'NR>1 && $3>m{m=$3} END{print m+0}'", EXPORT)) + 0
set title "Fast producer: live registers over time"
set xlabel "time (us)"
set ylabel "live registers n (16 MiB each; log(1+n) scale)"
set nonlinear y via log10(y + 1) inverse 10**y - 1
set yrange [0:(ymax + 1)*1.5 - 1]
set ytics ("0" 0, "1" 1, "2" 2, "4" 4, "10" 10, "20" 20, "50" 50, "100" 100, "200" 200, \
           "500" 500, "1000" 1000, "2000" 2000, "5000" 5000, "10000" 10000)
set key top right
# room after the last step, so a drop at the end of the x range stays visible
set autoscale xfix
set offsets 0, graph 0.02, 0, 0
plot data("points", "--where quota=0") using "t_us":"live" with steps lt 5 dt 1 title "unbounded", \
     for [k in "1 2 4"] data("points", "--where quota=".k) using "t_us":"live" with steps lt (k+0) title "quota ".k
call "plots/render.gp"
