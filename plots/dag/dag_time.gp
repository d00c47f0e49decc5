# tf-F5: wall time of partitioning and of scheduling + simulation against
# graph size (wall clock on the machine that ran it; mean over graphs).
load "plots/style.gp"
call "plots/pdf.gp" "13" "5.5"
set multiplot layout 1,2 title "Running time vs graph size (layered DAGs, 50 devices; wall clock)"
set xlabel "ops (log scale)"
set logscale xy
set format y "%g"
set key top left font ",7"
pols = system(sprintf("%s timing | awk 'NR>1{print $2}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
set ylabel "partitioning time (s)"
plot for [i=1:words(pols)] data("timing", "--where policy=".word(pols,i)) \
       using "ops":(column("part_seconds") > 0 ? column("part_seconds") : 1e-6) with points title word(pols,i)
set ylabel "scheduling + simulation time (s)"
plot for [i=1:words(pols)] data("timing", "--where policy=".word(pols,i)) \
       using "ops":(column("sched_seconds") > 0 ? column("sched_seconds") : 1e-6) with points title word(pols,i)
unset multiplot
call "plots/render.gp"
