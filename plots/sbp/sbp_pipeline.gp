# oneflow-F12: per-stage peak of stashed activations (stage 0, the most)
# and the bubble fraction against microbatches M, for OneFlow's buffer
# sizes, GPipe and 1F1B (actor DES, balanced stages F 1 ms, B 2 ms).
# Many series coincide (all three schedules have the same bubble, and their
# stashes agree while M is small): the first S has filled points, the
# others hollow and larger ones; within an S the point size and line width
# shrink from oneflow to gpipe to 1f1b, drawn in that order, so a series
# under another still shows around it.
load "plots/style.gp"
Ss = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
ks = "oneflow gpipe 1f1b"
# style of schedule k (1-3) at the i-th S: line type, width, point shape, size
slt(k, i) = k + 9*(i - 1)
slw(k) = word("2.4 1.6 1", k) + 0
spt(k, i) = word(i == 1 ? "7 5 9" : "6 4 8", k) + 0
sps(k, i) = (word("1.5 1.1 0.7", k) + 0) * (i == 1 ? 1 : 1.7)
Mr = system(sprintf("%s points | awk 'NR>1{if(n++==0||$2<a)a=$2; if($2>b)b=$2} END{print a, b}'", EXPORT))
set logscale x 2
# room beyond the first and last M and below the lowest point, so no
# point is cut by an axis
set xrange [(word(Mr,1)+0)/1.2:(word(Mr,2)+0)*1.2]
set offsets 0, 0, graph 0.04, graph 0.04
set xlabel "microbatches M (log scale)"
set key font ",8" spacing 1.5 samplen 3
call "plots/pdf.gp" "11" "4.5"
set multiplot layout 1,2
set title "peak stashed activations (stage 0)"
set ylabel "activations stashed (count)"
set key top left
set autoscale yfix
plot for [i=1:words(Ss)] for [k=1:3] data("points", sprintf("--where S=%s --where buffers=%s", word(Ss,i), word(ks,k))) \
       using "M":"stash_s0" with linespoints lt slt(k,i) lw slw(k) pt spt(k,i) ps sps(k,i) \
       title sprintf("%s, S=%s", word(ks,k), word(Ss,i))
set title "bubble fraction"
set ylabel "idle share of the stages"
# the curves fall from the top left: the key goes top right, above them
set autoscale y
set yrange [*:1]
set key top right
plot for [i=1:words(Ss)] for [k=1:3] data("points", sprintf("--where S=%s --where buffers=%s", word(Ss,i), word(ks,k))) \
       using "M":"bubble" with linespoints lt slt(k,i) lw slw(k) pt spt(k,i) ps sps(k,i) \
       title sprintf("%s, S=%s", word(ks,k), word(Ss,i)), \
     for [s in Ss] data("points", sprintf("--where S=%s --where buffers=1f1b", s)) \
       using "M":"bubble_formula" with lines lt 8 dt 3 title sprintf("(S-1)/(M+S-1), S=%s", s)
unset multiplot
call "plots/render.gp"
