# pslocality-F1: mean completion time of PS jobs against the arrival
# intensity (mean over instances), one line per scheme; a job
# unfinished at the horizon counts to it. RR-kappa (pslocality) and OASiS
# are our reconstructions.
call "plots/style.gp" "9" "5"
set title "PS-locality model: mean completion time against arrival intensity (reconstructed)"
set xlabel "arrival intensity K (at most K arrivals per 20-min slot)"
set ylabel "mean completion time (h)"
set xtics 1
set yrange [0:*]
set key outside right top
pols = "pslocality oasis optimus drf fifo tetris local-first spread random"
# means only: with few instances the 95% CI (in the summary) would hide
# the lines; each series is shifted a little along x, so that schemes
# with equal results (e.g. FIFO and Spread when every job spans servers)
# stay visible side by side
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using (column("intensity") + (i - 5) * 0.04):"mean_h_mean" with linespoints lt i title word(pols,i)
call "plots/render.gp"
