# pipeplan-F2: mean speed-up over one GPU (95% CI over random topologies)
# of every planner against the number of GPUs of seeded random irregular
# topologies, BERT-48 and GNMT-16, M = 16. Simulated.
load "plots/style.gp"
models = system(sprintf("%s export %s summary | awk 'NR>1{print $2}' | awk '!s[$0]++' | tr '\\n' ' '", SB, RESULTS))
pls = system(sprintf("%s export %s summary | awk 'NR>1{print $3}' | awk '!s[$0]++' | tr '\\n' ' '", SB, RESULTS))
nm = words(models)
# topologies per size: with one (a QUICK run) there is no interval to draw
reps = int(system(sprintf("%s export %s summary | awk 'NR>1 && $4>m {m=$4} END {print m+0}'", SB, RESULTS)))
set logscale x 2
set xlabel "GPUs (random irregular topologies, log scale)"
set ylabel "speed-up over 1 GPU"
set yrange [0:*]
set key top left font ",7"
do for [pass=1:2] {
  if (pass == 1) {
    set terminal pngcairo size (520*nm),420 font "DejaVu Sans,9"
    set output OUT.".png"
  } else {
    set terminal pdfcairo size (5.2*nm),4.2 font "DejaVu Sans,8"
    set output OUT.".pdf"
  }
  set multiplot layout 1,nm title "Random irregular topologies (simulated; SPP-R = our reconstruction)"
  do for [m=1:nm] {
    set title word(models,m)
    # lines from the means; error bars where there are replicates to
    # give a confidence interval (one topology per size has none)
    if (reps > 1) {
      plot for [p=1:words(pls)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(pls,p))) \
             using "gpus":"speedup_mean" with linespoints lt p title word(pls,p), \
           for [p=1:words(pls)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(pls,p))) \
             using "gpus":"speedup_mean":"speedup_ci95" with yerrorbars lt p pt 0 notitle
    } else {
      plot for [p=1:words(pls)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(pls,p))) \
             using "gpus":"speedup_mean" with linespoints lt p title word(pls,p)
    }
  }
  unset multiplot
}
set output
