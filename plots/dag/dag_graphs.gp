# tf-F1: speed-up over Hash+FIFO of every combination on each TF graph
# (mean and 95% CI over replicates, the lower end clipped at 0), 50
# devices, one panel per graph. Policies sorted by speed-up, labels on the
# y axis so that ~50 of them stay readable; the paper's own partitioners
# (CP, MITE, ICP, DFS, BatchSplit) in one colour, the baselines in another.
load "plots/style.gp"
graphs = system(sprintf("%s summary | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
ng = words(graphs)
npol = int(system(sprintf("%s summary | awk 'NR>1{print $2}' | sort -u | wc -l", EXPORT)))
# "policy mean lo hi group" sorted by mean; group 1: a partitioner of the
# paper, 2: a baseline
rows(g) = sprintf("< %s summary --where instance=%s | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{m=$c[\"speedup_hashfifo_mean\"];h=$c[\"speedup_hashfifo_ci95\"];if(h!=h)h=0;lo=m-h;if(lo<0)lo=0;p=$c[\"policy\"];split(p,a,\"+\");grp=(a[1]~/^(cp|mite|icp|dfs|batchsplit)$/)?1:2;print p,m,lo,m+h,grp}' | sort -k2,2g", EXPORT, g)
xmax = real(system(sprintf("%s summary | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{h=$c[\"speedup_hashfifo_ci95\"];if(h!=h)h=0;v=$c[\"speedup_hashfifo_mean\"]+h;if(v>x)x=v}END{print x*1.05}'", EXPORT)))
set xlabel "speed-up over Hash+FIFO (x)"
set xrange [0:xmax]
set yrange [-1:npol + 3]   # room above the best policy for the key
set ytics font ",7"
set grid xtics lc rgb "#dddddd"
set key inside top left opaque font ",8"
set tmargin 4
set terminal pdfcairo size (4.6*ng),(0.16*npol + 1.6) font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 1,ng title "Speed-up over Hash+FIFO on the TF graphs, 50 devices (mean, 95% CI)"
do for [g=1:ng] {
  set title "graph: ".word(graphs,g)
  plot rows(word(graphs,g)) using 2:0:3:4:($5 == 1 ? 1 : 3):ytic(1) with xerrorbars lc variable pt 7 ps 0.7 notitle, \
       NaN with points lt 1 pt 7 title "the paper's partitioners", \
       NaN with points lt 3 pt 7 title "baselines", \
       "+" using (1):(-1):(0):(npol + 1) with vectors nohead lc rgb "#666666" lw 1 dt 2 title "Hash+FIFO (= 1)"
}
unset multiplot
call "plots/render.gp"
