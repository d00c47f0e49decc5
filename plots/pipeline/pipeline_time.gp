# pipeplan-F5: planner wall time (timing dataset: wall clock on the machine
# that ran it) against layers (64 GPUs) and against GPUs (100 layers or the
# largest run), every planner.
load "plots/style.gp"
pls = system(sprintf("%s timing | awk 'NR>1{print $5}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
maxg = system(sprintf("%s timing | awk 'NR>1{print $3}' | sort -n | tail -1", EXPORT))
maxl = system(sprintf("%s timing | awk 'NR>1{print $4}' | sort -n | tail -1", EXPORT))
set logscale xy
set format y "%g"
set autoscale xfix
set offsets graph 0.05, graph 0.05, 0, 0
set ylabel "planner wall time (s, log scale)"
set key top left font ",7"
set terminal pdfcairo size 11,4.3 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 1,2 title "Planner running time (wall clock, this machine)"
set title sprintf("vs layers (%s GPUs)", maxg)
set xlabel "layers (log scale)"
set xtics (25, 50, 100, 200, 400)
plot for [p=1:words(pls)] data("timing", sprintf("--where planner=%s --where gpus=%s", word(pls,p), maxg)) \
       using "layers":"plan_seconds" with linespoints lt p title word(pls,p)
set title sprintf("vs GPUs (%s layers)", maxl)
set xlabel "GPUs (log scale)"
set xtics (4, 8, 16, 32, 64, 128)
plot for [p=1:words(pls)] data("timing", sprintf("--where planner=%s --where layers=%s", word(pls,p), maxl)) \
       using "gpus":"plan_seconds" with linespoints lt p title word(pls,p)
unset multiplot
call "plots/render.gp"
