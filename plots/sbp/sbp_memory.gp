# oneflow-F11: live registers (16 MiB each) of a producer twice as fast
# as its consumer, unbounded quota vs quota k: back-pressure keeps memory
# flat at k. Unbounded draws in line type 5: quota 4 takes type 4.
call "plots/style.gp" "8" "5"
set title "Fast producer: live registers over time"
set xlabel "time (us)"
set ylabel "live registers"
set key top left
plot data("points", "--where quota=0") using "t_us":"live" with steps lt 5 title "unbounded", \
     for [k in "1 2 4"] data("points", "--where quota=".k) using "t_us":"live" with steps lt (k+0) title "quota ".k
call "plots/render.gp"
