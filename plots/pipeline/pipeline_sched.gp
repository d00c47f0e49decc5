# dapple-F3: one balanced straight pipeline per model (8 stages, Config
# A's NVLink server), microbatches of a fixed size, M growing: throughput
# (left) and peak memory per GPU (right) under DAPPLE's early-backward
# schedule, GPipe, GPipe with re-computation and 1F1B. Hollow points: the
# plan does not fit the 16 GB GPUs under that schedule. Simulated.
load "plots/style.gp"
models = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
scheds = "early-backward gpipe gpipe-recompute 1f1b"
# line types: early-backward and 1f1b often coincide exactly, so they get
# different dashes (solid blue under dashed purple) and both stay visible
lts = "1 2 3 5"
nm = words(models)
# " sched1 sched2 " of the schedules of model m with rows fits=f
fits_of(m, f) = " ".system(sprintf("%s points --where model=%s --where fits=%d | awk 'NR==1{for(i=1;i<=NF;i++)if($i==\"schedule\")c=i;next}{print $c}' | sort -u | tr '\\n' ' '", EXPORT, m, f))
set logscale x 2
set xlabel "microbatches M (log scale)"
set key top left font ",8"
set terminal pdfcairo size 11,(3.3*nm) font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout nm,2 title "Schedules on one plan: throughput and memory (simulated)"
do for [m=1:nm] {
  set title word(models,m).": throughput"
  set key top left
  set ylabel "samples/s"
  set yrange [0:*]
  # only the schedules with points that fit (lines) or do not (hollow
  # points): an empty series is a gnuplot warning, not a figure
  fit = fits_of(word(models,m), 1)
  unfit = fits_of(word(models,m), 0)
  cmd = ""
  do for [s=1:words(scheds)] {
    sc = word(scheds,s)
    w = sprintf("--where model=%s --where schedule=%s", word(models,m), sc)
    if (strstrt(fit, " ".sc." ")) {
      cmd = cmd.(cmd eq "" ? "" : ", ").sprintf("data(\"points\", \"%s --where fits=1\") using \"M\":\"throughput\" with linespoints lt %d title \"%s\"", w, int(word(lts,s)), sc)
    }
    if (strstrt(unfit, " ".sc." ")) {
      cmd = cmd.(cmd eq "" ? "" : ", ").sprintf("data(\"points\", \"%s --where fits=0\") using \"M\":\"throughput\" with points lt %d pt 6 %s", w, int(word(lts,s)), strstrt(fit, " ".sc." ") ? "notitle" : sprintf("title \"%s (does not fit)\"", sc))
    }
  }
  eval "plot ".cmd
  set title word(models,m).": peak memory per GPU"
  set key outside right top   # inside it met the 16 GB line or the data
  set ylabel "GB (log scale)"
  set logscale y
  set yrange [*:*]
  plot for [s=1:words(scheds)] data("points", sprintf("--where model=%s --where schedule=%s", word(models,m), word(scheds,s))) \
         using "M":"peak_mem_gb" with linespoints lt int(word(lts,s)) title word(scheds,s), \
       16 with lines lt 8 dt 2 title "GPU memory (16 GB)"
  unset logscale y
}
unset multiplot
call "plots/render.gp"
