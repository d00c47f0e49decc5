# gadget-F1: total utility at the horizon against the arrival rate, one
# panel per objective (EXC, ENE, FAIR), one line per policy (mean and 95%
# CI over instances). GADGET-R is our reconstruction.
load "plots/style.gp"
set xlabel "arrivals per slot (20 min)"
set logscale x 2
pols = "gadget-r gadget-pd gadget-nolocality fifo drf tetris optimus tiresias firstfit"
TITLE = "GADGET model: total utility against load (reconstructed)"
YLABEL = "total utility (utility units)"
PANEL = 'plot for [i=1:words(pols)] data("summary", "--where util=".word(utils,u)." --where policy=".word(pols,i)) using "rate":"utility_mean":"utility_ci95" with yerrorlines lt i title word(pols,i)'
load "plots/alloc/panels3.gp"
