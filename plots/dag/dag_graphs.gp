# tf-F1: speed-up over Hash+FIFO of every combination on each TF graph
# (mean and 95% CI over replicates), 50 devices. Reads the summary.
load "plots/style.gp"
graphs = system(sprintf("%s export %s summary | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", SB, RESULTS))
ng = words(graphs)
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel "speed-up (x)"
set yrange [0:*]
set xtics rotate by 60 right font ",7"
set key off
set terminal pngcairo size 1200,(420*ng) font "DejaVu Sans,10"
set output OUT.".png"
set multiplot layout ng,1 title "Speed-up over Hash+FIFO (higher is better; > 1 beats the paper's baseline)"
do for [g=1:ng] {
  set title "graph: ".word(graphs,g)
  plot data("summary", "--where instance=".word(graphs,g)) \
         using 0:"speedup_hashfifo_mean":"speedup_hashfifo_ci95":xtic(stringcolumn("policy")) \
         with boxerrorbars lt 1, \
       1 with lines lt 4 dt 2
}
unset multiplot
set terminal pdfcairo size 12,(4.2*ng) font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout ng,1 title "Speed-up over Hash+FIFO (higher is better; > 1 beats the paper's baseline)"
do for [g=1:ng] {
  set title "graph: ".word(graphs,g)
  plot data("summary", "--where instance=".word(graphs,g)) \
         using 0:"speedup_hashfifo_mean":"speedup_hashfifo_ci95":xtic(stringcolumn("policy")) \
         with boxerrorbars lt 1, \
       1 with lines lt 4 dt 2
}
unset multiplot
set output
