# pipeplan-F3: iteration time of every planner against the number of
# microbatches at a fixed global batch, on T-a. Simulated.
load "plots/style.gp"
models = system(sprintf("%s export %s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", SB, RESULTS))
pls = system(sprintf("%s export %s points | awk 'NR>1{print $5}' | awk '!s[$0]++' | tr '\\n' ' '", SB, RESULTS))
nm = words(models)
set logscale x 2
set xlabel "microbatches M (log scale)"
set ylabel "iteration time (s)"
set yrange [0:*]
set key top right font ",7"
do for [pass=1:2] {
  if (pass == 1) {
    set terminal pngcairo size (520*nm),420 font "DejaVu Sans,9"
    set output OUT.".png"
  } else {
    set terminal pdfcairo size (5.2*nm),4.2 font "DejaVu Sans,8"
    set output OUT.".pdf"
  }
  set multiplot layout 1,nm title "Iteration time vs microbatches (T-a; simulated; SPP-R = our reconstruction)"
  do for [m=1:nm] {
    set title word(models,m)
    plot for [p=1:words(pls)] data("points", sprintf("--where model=%s --where planner=%s --where fits=1", word(models,m), word(pls,p))) \
           using "M":"iter_time" with linespoints lt p title word(pls,p)
  }
  unset multiplot
}
set output
