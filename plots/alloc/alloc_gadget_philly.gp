# gadget-F1p: total utility at the horizon on windows of the Philly trace
# (real arrivals and GPU counts; synthetic Poisson fallback without the
# file, see the results' inputs note) against the arrival compression, one
# panel per objective (EXC, ENE, FAIR), one line per policy (mean and 95%
# CI over windows). GADGET-R and GADGET-PD are our reconstructions.
load "plots/style.gp"
set xlabel "arrival compression (x the trace's rate)"
set logscale x 2
set xrange [3:45]
pols = "gadget-r gadget-pd gadget-nolocality fifo drf tetris optimus tiresias firstfit"
TITLE = "GADGET model on Philly arrivals: total utility against compression (reconstructed)"
YLABEL = "total utility (utility units)"
PANEL = 'plot for [i=1:words(pols)] data("summary", "--where util=".word(utils,u)." --where policy=".word(pols,i)) using "speedup":"utility_mean":"utility_ci95" with yerrorlines lt i title word(pols,i)'
load "plots/alloc/panels3.gp"
