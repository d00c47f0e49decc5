# gadget-F5: wall-clock scheduler time per slot against the cluster size
# (timing dataset: depends on the machine and its load), EXC, one line per
# policy, one point per instance.
call "plots/style.gp" "9" "5"
set title "GADGET model: scheduler runtime per slot (wall clock, reconstructed)"
set xlabel "servers (8 GPUs each)"
set ylabel "runtime per slot (ms, log scale)"
set logscale x 2
set logscale y
set key outside right top
pols = "gadget-r gadget-pd gadget-nolocality fifo drf tetris optimus tiresias firstfit"
plot for [i=1:words(pols)] data("timing", "--where policy=".word(pols,i)) \
       using "servers":(column("ms_per_slot") > 0 ? column("ms_per_slot") : 1e-4) with linespoints lt i title word(pols,i)
call "plots/render.gp"
