# smd-F6: step time against the PS/worker ratio p/w at a fixed worker count,
# each series divided by its own value at p = w: DL2's measured speeds
# (w / sum of the workers' speeds), the Optimus form fitted by NNLS to all of
# the model's measurements, and our layered (WFBP) model (reconstructed).
# Four panels (the models with the densest measurements), so this script
# opens its PDF itself.
load "plots/style.gp"
panel(m, w) = sprintf("--where model=%s --where workers=%d", m, w)
ms = "resnet-50 vgg-16 inception-bn dssm"
ws = "8 8 9 9"
# rows with a DL2 measurement: none when config_speed.txt is absent (synthetic
# fallback), and then only the WFBP model can be drawn
ndl2 = int(system(sprintf("%s points | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}$c[\"dl2_rel\"]!=\"nan\"{n++}END{print n+0}'", EXPORT)))
note = ndl2 > 0 ? "" : " - no DL2 speed table (see make data): WFBP model only"
set terminal pdfcairo size 12,8 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 2,2 margins 0.08, 0.97, 0.08, 0.9 spacing 0.08, 0.12 title "Step time against the PS/worker ratio, relative to p = w (WFBP model reconstructed)".note
do for [k=1:4] {
  m = word(ms, k); w = int(word(ws, k))
  set title sprintf("%s, %d workers", m, w)
  set xlabel "PSs / workers"
  set ylabel "step time / step time at p = w"
  set logscale y
  if (k == 1) { set key top right } else { unset key }
  if (ndl2 > 0) {
    plot data("points", panel(m, w)) using "ratio":"dl2_rel" with linespoints lt 1 title "DL2 measured", \
         data("points", panel(m, w)) using "ratio":"fit_rel" with linespoints lt 2 title "Optimus-form fit", \
         data("points", panel(m, w)) using "ratio":"wfbp_rel" with linespoints lt 3 title "WFBP model"
  } else {
    plot data("points", panel(m, w)) using "ratio":"wfbp_rel" with linespoints lt 3 title "WFBP model"
  }
}
unset multiplot
call "plots/render.gp"
