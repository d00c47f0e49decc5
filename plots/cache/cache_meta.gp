# bgl-F6: measured CPU time per request of each dynamic cache policy's own
# work (lookups and admissions on a pre-routed trace; median and
# interquartile range over repetitions), per graph. A measurement on the
# machine that ran it, not a model constant.
call "plots/style.gp" "8" "5"
set title "Cache policy cost per request (measured CPU time; median, IQR)"
set ylabel "ns per request"
set xlabel "policy"
set style fill solid 0.7 border -1
set boxwidth 0.18
set key top left font ",8"
set yrange [0:*]
set xrange [-0.5:3.5]
graphs = system(sprintf("%s timing | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
pols = "fifo clock lru lfu"
set xtics ("fifo" 0, "clock" 1, "lru" 2, "lfu" 3)
# median, first and third quartile of ns_per_req per (graph, policy)
q(g, p) = sprintf("< %s timing --where graph=%s --where policy=%s | awk 'NR>1{print $4}' | sort -g | awk 'BEGIN {print \"median q1 q3\"} {a[NR]=$1} END {n=NR; m=(n%%2)?a[(n+1)/2]:(a[n/2]+a[n/2+1])/2; print m, a[int((n+3)/4)], a[int((3*n+1)/4)]}'", EXPORT, g, p)
ng = words(graphs)
plot for [g=1:ng] for [i=1:words(pols)] q(word(graphs,g), word(pols,i)) \
       using (i - 1 + (g - (ng + 1) / 2.0) * 0.2):1:2:3:(0.18) with boxerrorbars lc g dt 1 title (i == 1 ? word(graphs,g) : "")
call "plots/render.gp"
