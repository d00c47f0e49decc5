# bgl-F1 and bgl-F7: hit ratio against the total GPU cache size per policy
# with Belady's MIN and the optimal static content (top row), and each
# policy's hits over the MIN bound on its own routing (bottom row; warm
# MIN for the static policies, which start full); one column per graph.
# Exact counts from trace replay: uniform shuffle order (PO-K not built
# yet), 1 machine x 4 GPUs in one NVLink group, caches sharded v mod 4.
load "plots/style.gp"
graphs = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
pols = "none static-degree-rep static-degree presampled fifo lru lfu clock"
ng = words(graphs)
set logscale x
set xrange [0.008:0.25]
set xtics ("1" 0.01, "2" 0.02, "5" 0.05, "10" 0.1, "20" 0.2)
set xlabel "total GPU cache (% of |V|, log scale)"
set terminal pdfcairo size (4.2*ng),8 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 2,ng title "Feature-cache hits vs cache size (exact counts; shuffle order; 1 machine x 4 GPUs)"
do for [g=1:ng] {
  set title word(graphs,g)
  set ylabel "hit ratio"
  set yrange [0:*]
  if (g == 1) { set key top left font ",7" } else { unset key }
  plot for [i=1:words(pols)] data("points", "--where graph=".word(graphs,g)." --where policy=".word(pols,i)) \
         using "frac":"hit_ratio" with linespoints lt i title word(pols,i), \
       data("points", "--where graph=".word(graphs,g)." --where policy=belady") \
         using "frac":"hit_ratio" with linespoints lt 8 dt 2 title "Belady MIN", \
       data("points", "--where graph=".word(graphs,g)." --where policy=static-opt") \
         using "frac":"hit_ratio" with lines lt 16 title "optimal static"
}
do for [g=1:ng] {
  set title word(graphs,g)
  set ylabel "hits / MIN hits (same routing)"
  set yrange [0:1.05]
  if (g == 1) { set key bottom right font ",7" } else { unset key }
  plot for [i=2:words(pols)] data("points", "--where graph=".word(graphs,g)." --where policy=".word(pols,i)) \
         using "frac":"ratio_belady" with linespoints lt i title word(pols,i), \
       1 with lines lt 8 dt 2 title "MIN"
}
unset multiplot
call "plots/render.gp"
