# oneflow-F12: per-stage peak of stashed activations (stage 0, the most)
# and the bubble fraction against microbatches M, for OneFlow's buffer
# sizes, GPipe and 1F1B (actor DES, balanced stages F 1 ms, B 2 ms).
load "plots/style.gp"
Ss = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
ks = "oneflow gpipe 1f1b"
set logscale x 2
set xlabel "microbatches M (log scale)"
set key top left font ",8"
call "plots/pdf.gp" "11" "4.5"
set multiplot layout 1,2
set title "peak stashed activations (stage 0)"
set ylabel "activations"
plot for [s in Ss] for [k=1:3] data("points", sprintf("--where S=%s --where buffers=%s", s, word(ks,k))) \
       using "M":"stash_s0" with linespoints lt (k + 9*((s+0)==8)) title sprintf("%s, S=%s", word(ks,k), s)
set title "bubble fraction"
set ylabel "idle share of the stages"
plot for [s in Ss] for [k=1:3] data("points", sprintf("--where S=%s --where buffers=%s", s, word(ks,k))) \
       using "M":"bubble" with linespoints lt (k + 9*((s+0)==8)) title sprintf("%s, S=%s", word(ks,k), s), \
     for [s in Ss] data("points", sprintf("--where S=%s --where buffers=1f1b", s)) \
       using "M":"bubble_formula" with lines lt 8 dt 3 title sprintf("(S-1)/(M+S-1), S=%s", s)
unset multiplot
call "plots/render.gp"
