# gadget-F3: share of the cluster's GPUs held per slot (first instance, 1
# arrival per slot on average: below saturation, where policies differ),
# one panel per objective, one line per policy. GADGET-R reconstructed.
load "plots/style.gp"
set xlabel "time (h)"
set yrange [0:1.05]
pols = "gadget-r gadget-pd gadget-nolocality fifo drf tetris optimus tiresias firstfit"
TITLE = "GADGET model: GPU utilisation over time, first instance (reconstructed)"
YLABEL = "share of GPUs held"
PANEL = 'plot for [i=1:words(pols)] data("points", "--where rep=0 --where util=".word(utils,u)." --where policy=".word(pols,i)) using "time_h":"busy" with steps lt i title word(pols,i)'
load "plots/alloc/panels3.gp"
