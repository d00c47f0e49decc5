# marl-F4: average JCT (left; mean and 95% CI over traces) and the
# scheduler's wall-clock time per decision epoch (right; mean over traces, from the
# `timing` dataset: not deterministic) against the number of agents on T1
# at load 0.7. The learned scheduler was trained with 2 agents, the
# single-agent baseline with 1; greedy-interf for reference. Agents act in
# turn in our simulator, so an epoch costs one forward pass per agent that
# tries its head job: not the latency of agents deciding in parallel.
# Reconstructed (the paper is abstract-only). Two panels: the script
# opens its PDF itself (a multiplot of its own size).
load "plots/style.gp"
pols = "agents+marl agents+marl-single agents+greedy-interf"
n = words(pols)
dec(p) = sprintf("< %s timing --where policy=%s | awk 'NR == 1 { print \"agents us\"; next } { s[$9] += $8; k[$9]++ } END { for (a in s) print a, s[a] / k[a] }' | sort -n", EXPORT, p)
set terminal pdfcairo size 11,4.5 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2 title "Number of agents on T1, load 0.7 (marl.md setting, reconstructed)"
set xlabel "agents (series shifted slightly for legibility)"
set xrange [0.5:4.5]
set xtics (1, 2, 4)
set ylabel "average JCT (s)"
set yrange [0:*]
set key bottom right
plot for [i=1:n] data("summary", "--where policy=".word(pols,i)) \
       using (column("agents") + 0.06 * (i - (n + 1) / 2.0)):"jct_mean_mean":"jct_mean_ci95" \
       with yerrorlines lt i title word(pols,i)
set ylabel "scheduler time per decision epoch (us, wall clock)"
set key top left
plot for [i=1:n] dec(word(pols,i)) using (column("agents") + 0.06 * (i - (n + 1) / 2.0)):"us" \
       with linespoints lt i title word(pols,i)
unset multiplot
call "plots/render.gp"
