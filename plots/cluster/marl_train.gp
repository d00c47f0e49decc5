# marl-F6: the training curve of the learned placer on T1, PPO and A2C:
# average JCT of each training episode (thin) and its running mean over 16
# episodes (thick). Episodes follow the load curriculum 0.5 -> 0.9 and use
# the learned slowdowns S^, so the curve mixes learning with a rising load.
# Topology-and-interference mode of marl.md; reconstructed (the paper is
# abstract-only).
call "plots/style.gp" "9" "5"
set title "Training curve on T1 (load curriculum 0.5 -> 0.9; marl.md setting, reconstructed)"
set xlabel "training episode"
set ylabel "episode average JCT (s)"
set key top left
set yrange [0:*]
curve(v) = data("points", "--where kind=curve --where variant=".v)
# running mean of the last 16 episodes (fewer at the start)
runmean(v) = sprintf("< %s points --where kind=curve --where variant=%s | awk 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; print \"episode mean\"; next } { x = $h[\"jct_mean\"]; s += x; q[NR] = x; if (NR > 17) s -= q[NR - 16]; k = NR - 1 < 16 ? NR - 1 : 16; print $h[\"episode\"], s / k }'", EXPORT, v)
plot curve("marl") using "episode":"jct_mean" with lines lt 1 lw 0.6 title "PPO (marl), per episode", \
     runmean("marl") using "episode":"mean" with lines lt 1 lw 3 title "PPO, running mean of 16", \
     curve("marl-a2c") using "episode":"jct_mean" with lines lt 2 lw 0.6 title "A2C (marl-a2c), per episode", \
     runmean("marl-a2c") using "episode":"mean" with lines lt 2 lw 3 title "A2C, running mean of 16"
call "plots/render.gp"
