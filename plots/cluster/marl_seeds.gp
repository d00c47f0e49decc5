# marl-S (ours): average JCT on T1 at load 0.7 (mean and 95% CI over the
# held-out traces of marl_jct) of the scheduler's recipe trained with
# several seeds, with GAE lambda = 1 (marl) and the spec's 0.95
# (marl-gae95), each acting greedily and sampling its actions; the
# horizontal lines are tiresias+consolidate and agents+greedy-interf on
# the same traces. Log scale: a net that collapses into deferral is tens
# of times the others. Reconstructed (the paper is abstract-only).
call "plots/style.gp" "9" "5"
set title "Training seeds on T1, load 0.7 (ours; marl.md recipe, reconstructed)"
set xlabel "training seed (series shifted slightly for legibility)"
set ylabel "average JCT (s, log scale)"
set key outside right top
set logscale y
stats data("summary", "--where policy=tiresias+consolidate") using "jct_mean_mean" nooutput
tir = STATS_max
stats data("summary", "--where policy=agents+greedy-interf") using "jct_mean_mean" nooutput
gri = STATS_max
stats data("summary", "--where act=greedy") using "train_seed" nooutput
s0 = STATS_min
s1 = STATS_max
stats data("summary", "") using "jct_mean_mean" nooutput
set xrange [s0 - 0.6 : s1 + 0.6]
set yrange [STATS_min / 1.5 : STATS_max * 2.5]
set xtics 1
plot data("summary", "--where policy=agents+marl --where act=greedy") \
       using (column("train_seed") - 0.15):"jct_mean_mean":"jct_mean_ci95" with yerrorbars lt 1 title "lambda = 1, greedy", \
     data("summary", "--where policy=agents+marl --where act=sampled") \
       using (column("train_seed") - 0.05):"jct_mean_mean":"jct_mean_ci95" with yerrorbars lt 2 title "lambda = 1, sampled", \
     data("summary", "--where policy=agents+marl-gae95 --where act=greedy") \
       using (column("train_seed") + 0.05):"jct_mean_mean":"jct_mean_ci95" with yerrorbars lt 3 title "lambda = 0.95, greedy", \
     data("summary", "--where policy=agents+marl-gae95 --where act=sampled") \
       using (column("train_seed") + 0.15):"jct_mean_mean":"jct_mean_ci95" with yerrorbars lt 4 title "lambda = 0.95, sampled", \
     tir with lines lt 8 dt 2 title "tiresias+consolidate", \
     gri with lines lt 5 dt 3 title "agents+greedy-interf"
call "plots/render.gp"
