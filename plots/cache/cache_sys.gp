# bgl-F5: modelled epoch-time breakdown of three system configurations
# (spec bgl.md §8): DGL-like (METIS, shuffle, no cache, shared stages),
# PaGraph-like (PaGraph partition, shuffle, replicated static-degree
# cache, shared stages), BGL with shared stages (ablation) and BGL (block
# partitioner, PO-K, sharded FIFO, isolated stages); P machines x k GPUs.
# Every time is simulated with cost model bgl-9.5 with stage isolation
# (core/cache/iso.c): each bar is one resource's busy time per epoch, the
# black bar the epoch time (the busiest resource). One panel per graph.
# Opens its PDF itself.
load "plots/style.gp"
graphs = system(sprintf("%s points | awk 'NR>1 && !s[$1]++ {print $1}' | tr '\\n' ' '", EXPORT))
stages = "t_sample t_gather t_net t_rpc t_h2d t_compute"
names = "sampling(CPU) gather(CPU) network RPC-latency PCIe GPU"
ng = words(graphs)
set terminal pdfcairo size (5.2*ng),5.6 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,ng title "Epoch-time breakdown, simulated with cost model bgl-9.5 with stage isolation (not measured)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.9
set yrange [0:*]
set xtics rotate by -30 left
do for [g=1:ng] {
  set title word(graphs,g)
  set ylabel "modelled time per epoch (ms)"
  if (g == ng) { set key outside right top font ",8" } else { unset key }
  plot data("points", "--where graph=".word(graphs,g)) using (column("t_epoch")*1e3):xtic(2) lt 8 dt 1 title "epoch", \
       for [i=1:words(stages)] data("points", "--where graph=".word(graphs,g)) \
         using (column(word(stages,i))*1e3) lt i dt 1 title word(names,i)
}
unset multiplot
call "plots/render.gp"
