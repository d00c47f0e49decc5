# dapple-F1/F2: speed-up over one GPU against the global batch size, per
# model (columns) and DAPPLE hardware configuration (rows): pure data
# parallelism with and without overlap, DAPPLE's planner (paper
# description and released version) and PipeDream's planner run
# synchronously. Plans that do not fit the 16 GB GPUs are left out.
# Simulated with DAPPLE's cost constants, not the paper's testbed.
load "plots/style.gp"
models = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
topos = system(sprintf("%s points | awk 'NR>1{print $3}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
pls = "dp dp-overlap dapple dapple-hpgo pipedream"
nm = words(models)
nt = words(topos)
set logscale x 2
set xlabel "global batch (samples, log scale)"
set ylabel "speed-up over 1 GPU"
set yrange [0:*]
unset key   # one legend, outside the panels (inside, it covered the first points)
set terminal pdfcairo size (3.3*nm + 1.5),(2.8*nt) font "DejaVu Sans,8"
set output OUT.".pdf"
# margins and gaps in pixels of the PNG, as fractions of the page
W = 330.0*nm + 150
H = 280.0*nt
set multiplot layout nt,nm margins 60/W, (330.0*nm)/W, 45/H, 1 - 60/H spacing 60/W, 70/H title "Speed-up over one GPU, 16 GPUs (simulated with DAPPLE's cost constants)"
do for [t=1:nt] {
  do for [m=1:nm] {
    set title word(models,m)." on ".word(topos,t)
    if (t == 1 && m == nm) { set key at screen 0.995, screen 0.88 right top font ",8" } else { unset key }
    plot for [p=1:words(pls)] data("points", sprintf("--where model=%s --where topo=%s --where planner=%s --where fits=1", word(models,m), word(topos,t), word(pls,p))) \
           using "batch":"speedup" with linespoints lt p title word(pls,p)
  }
}
unset multiplot
call "plots/render.gp"
