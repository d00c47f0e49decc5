# dapple-F4: iteration time of the same plan with its layer cuts moved to
# balance the stages' per-replica compute, over the time of DAPPLE's own
# (uneven) cuts, for every multi-stage plan of DAPPLE's two planners on the
# figures' grid; above 1 the uneven partition is faster. Simulated under
# the early-backward schedule with the project's cost model.
call "plots/style.gp" "8" "5"
pairs = sprintf("< %s points | awk 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; print \"model planner ratio\"; next } $h[\"partition\"] == \"planner\" { t = $h[\"iter_time\"]; next } $h[\"partition\"] == \"even\" { print $h[\"model\"], $h[\"planner\"], $h[\"iter_time\"] / t }'", EXPORT)
models = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
idx(m) = sum [k=1:words(models)] (word(models,k) eq m ? k : 0)
set xrange [0.5:words(models)+0.5]
set xtics () 
do for [k=1:words(models)] { set xtics add (word(models,k) k) }
set logscale y
set format y "%g"
set ylabel "time with balanced cuts / time with DAPPLE's cuts (log scale)"
set key top right font ",8"
set title "Uneven vs compute-balanced partitions of DAPPLE's plans (simulated)"
plot pairs using (idx(strcol("model")) - 0.12):(strcol("planner") eq "dapple" ? column("ratio") : NaN) with points lt 1 pt 7 title "dapple", \
     pairs using (idx(strcol("model")) + 0.12):(strcol("planner") eq "dapple-hpgo" ? column("ratio") : NaN) with points lt 2 pt 5 title "dapple-hpgo", \
     1 with lines lt 8 dt 2 notitle
call "plots/render.gp"
