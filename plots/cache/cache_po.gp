# bgl-F2: hit ratio against K of BGL's proximity-aware ordering PO-K
# (dedup) for FIFO (BGL's cache, solid) and LRU (points), with the
# uniform shuffle (K = 0, drawn at the left edge as "shuffle") and
# static-degree at the same cache size (dotted) for reference; one NVLink
# group of 4 GPUs, total cache 5% of |V| by default. Exact hit counts.
call "plots/style.gp" "9" "5"
set title "Hit ratio vs K of proximity-aware ordering (exact counts of the simulator)"
set xlabel "K (BFS sequences interleaved; the leftmost point is the uniform shuffle)"
set ylabel "hit ratio"
set logscale x 2
set xrange [0.4:100]
set xtics ("shuffle" 0.5, "1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64)
set key outside right top
graphs = system(sprintf("%s points | awk 'NR>1 && !s[$1]++ {print $1}' | tr '\\n' ' '", EXPORT))
# K = 0 (shuffle) is drawn at K = 1/2 on the log axis
kx(k) = k > 0 ? k : 0.5
plot for [i=1:words(graphs)] data("points", "--where policy=fifo --where graph=".word(graphs,i)) \
       using (kx(column("K"))):"hit_ratio" with linespoints lt i title word(graphs,i)." FIFO", \
     for [i=1:words(graphs)] data("points", "--where policy=lru --where graph=".word(graphs,i)) \
       using (kx(column("K"))):"hit_ratio" with points lt i pt 6 ps 1.4 title word(graphs,i)." LRU", \
     for [i=1:words(graphs)] data("points", "--where policy=static-degree --where graph=".word(graphs,i)) \
       using (kx(column("K"))):"hit_ratio" with lines lt i dt 3 lw 1 title word(graphs,i)." static-degree"
call "plots/render.gp"
