# marl-F7: the learned interference predictor S^ against the ground truth
# on held-out sampled co-location states of T1; the diagonal is a perfect
# prediction. MAPE (held-out) in the title.
call "plots/style.gp" "6" "6"
mape = system(sprintf("%s points --where kind=summary | awk 'NR==2 {for (i = 1; i <= NF; i++) if (h[i] == \"mape\") print $i} NR==1 {for (i = 1; i <= NF; i++) h[i] = $i}'", EXPORT))
set title sprintf("Learned slowdown model on held-out states (T1): MAPE %.2f%% (ours, marl.md 3.8)", mape + 0)
set xlabel "true slowdown S"
set ylabel "predicted slowdown S^"
set size ratio -1
# points at S = 1 (no interference) a little inside the frame
set offsets graph 0.03, graph 0.03, graph 0.03, graph 0.03
set key left top
plot data("points", "--where kind=heldout") using "truth":"pred" with points pt 7 ps 0.4 lt 1 title "held-out state", \
     x with lines lt 8 dt 2 title "S^ = S"
call "plots/render.gp"
