# gadget-F5: wall-clock scheduler time per slot against the cluster size
# (timing dataset: depends on the machine and its load), EXC, one point per
# instance and one line per policy through the mean of its instances at
# each size (smooth unique), so that a line never runs up and down between
# the instances of one size.
call "plots/style.gp" "9" "5"
set title "GADGET model: scheduler runtime per slot (wall clock, reconstructed)"
set xlabel "servers (8 GPUs each)"
set ylabel "runtime per slot (ms, log scale)"
set logscale x 2
set logscale y
set key outside right top
pols = "gadget-r gadget-pd gadget-nolocality fifo drf tetris optimus tiresias firstfit"
ms(x) = x > 0 ? x : 1e-4
plot for [i=1:words(pols)] data("timing", "--where policy=".word(pols,i)) \
       using "servers":(ms(column("ms_per_slot"))) smooth unique with lines lt i notitle, \
     for [i=1:words(pols)] data("timing", "--where policy=".word(pols,i)) \
       using "servers":(ms(column("ms_per_slot"))) with points lt i title word(pols,i)
call "plots/render.gp"
