# dapple-F3: one balanced straight pipeline per model (8 stages, Config
# A's NVLink server), microbatches of a fixed size, M growing: throughput
# (left) and peak memory per GPU (right) under DAPPLE's early-backward
# schedule, GPipe, GPipe with re-computation and 1F1B. Hollow points: the
# plan does not fit the 16 GB GPUs under that schedule. Simulated.
load "plots/style.gp"
models = system(sprintf("%s export %s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", SB, RESULTS))
scheds = "early-backward gpipe gpipe-recompute 1f1b"
nm = words(models)
set logscale x 2
set xlabel "microbatches M (log scale)"
set key top left font ",8"
do for [pass=1:2] {
  if (pass == 1) {
    set terminal pngcairo size 1100,(330*nm) font "DejaVu Sans,9"
    set output OUT.".png"
  } else {
    set terminal pdfcairo size 11,(3.3*nm) font "DejaVu Sans,8"
    set output OUT.".pdf"
  }
  set multiplot layout nm,2 title "Schedules on one plan: throughput and memory (simulated)"
  do for [m=1:nm] {
    set title word(models,m).": throughput"
    set ylabel "samples/s"
    set yrange [0:*]
    plot for [s=1:words(scheds)] data("points", sprintf("--where model=%s --where schedule=%s --where fits=1", word(models,m), word(scheds,s))) \
           using "M":"throughput" with linespoints lt s title word(scheds,s), \
         for [s=1:words(scheds)] data("points", sprintf("--where model=%s --where schedule=%s --where fits=0", word(models,m), word(scheds,s))) \
           using "M":"throughput" with points lt s pt 6 notitle
    set title word(models,m).": peak memory per GPU"
    set ylabel "GB (log scale)"
    set logscale y
    set yrange [*:*]
    plot for [s=1:words(scheds)] data("points", sprintf("--where model=%s --where schedule=%s", word(models,m), word(scheds,s))) \
           using "M":"peak_mem_gb" with linespoints lt s title word(scheds,s), \
         16 with lines lt 8 dt 2 title "GPU memory (16 GB)"
    unset logscale y
  }
  unset multiplot
}
set output
