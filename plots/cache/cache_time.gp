# bgl-F5a: modelled time per epoch of every cache policy on three cluster
# shapes (machines x GPUs), simulated with cost model bgl-9.5 (spec
# bgl.md §9.5: public hardware constants, not a measurement); one column
# per graph. Top: the epoch time (slowest GPU's sum of per-batch stage
# maxima); bottom: that GPU's feature stages (gather + host-to-device),
# the part a cache changes. Cache: 5% of |V| in total; shuffle order; nodes on machine
# v mod P (no partitioner yet).
load "plots/style.gp"
graphs = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
cfgs = "1x1 1x4 2x4"
ng = words(graphs)
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -40 font ",8"
set yrange [0:*]
set terminal pdfcairo size (4.2*ng),8.5 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 2,ng title "Epoch time per policy, simulated with cost model bgl-9.5 (5% of |V| cached; machines x GPUs)"
do for [g=1:ng] {
  set title word(graphs,g)
  if (g == 1) { set key top right font ",7" } else { unset key }
  set ylabel "modelled epoch time (ms)"
  plot for [i=1:words(cfgs)] data("points", "--where graph=".word(graphs,g)." --where config=".word(cfgs,i)) \
         using (column("t_epoch")*1e3):xtic(3) lc i dt 1 title word(cfgs,i)
}
do for [g=1:ng] {
  set title word(graphs,g)
  unset key
  set ylabel "modelled gather + host-to-device (ms)"
  plot for [i=1:words(cfgs)] data("points", "--where graph=".word(graphs,g)." --where config=".word(cfgs,i)) \
         using ((column("t_feat") + column("t_h2d"))*1e3):xtic(3) lc i dt 1 title word(cfgs,i)
}
unset multiplot
call "plots/render.gp"
