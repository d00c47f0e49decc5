# bgl-F4b: every non-replicating partitioner over the GLPK partition
# optimum on tiny BFS balls (mean and 95% CI over balls, P = 2): edge cut
# and expected remote sampling requests (fan-outs 5,10). 1 = optimal; a
# bar below 1 is a partition outside the ILP's balance rows (the column
# `feasible` of the results says which), never a better balanced one.
call "plots/style.gp" "9" "5"
set title "Partitioners / GLPK optimum on tiny graphs (P = 2; below 1: unbalanced, outside the ILP)"
set ylabel "heuristic / optimum (log scale)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border rgb "#333333"   # whiskers take the border colour: one dark grey
set boxwidth 0.9
set xtics rotate by 40 right
set logscale y
set yrange [0.1:*]
set key top left
plot data("summary", "--where P=2 --where obj=cut") using "ratio_mean":"ratio_ci95":xtic(3) lt 1 dt 1 title "edge cut", \
     data("summary", "--where P=2 --where obj=traffic") using "ratio_mean":"ratio_ci95" lt 2 dt 1 title "expected remote requests", \
     1 with lines lt 8 dt 2 notitle
call "plots/render.gp"
