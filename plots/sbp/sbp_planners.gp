# oneflow-F9: every planner's cost over the ILP optimum per model and
# hierarchy (1 = optimal; the ILP is proven optimal on every graph here).
# Tic labels "model (hierarchy)": an @ in enhanced text is a phantom box
# and swallowed the separator. Bars start at 0 (a linear axis); the dashed
# black line marks 1, the optimum.
call "plots/style.gp" "11" "5"
pls = system(sprintf("%s points | awk 'NR>1{print $5}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
set title "SBP planners against the ILP optimum"
set ylabel "cost / ILP optimum"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30 font ",8"
set key outside right top font ",8"
set yrange [0:*]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead back lt 8 dt 2 lw 1
plot for [i=1:words(pls)] data("points", "--where planner=".word(pls,i)) \
       using "ratio_opt":xtic(sprintf("%s (%s)", strcol("model"), strcol("hier"))) lt i title word(pls,i), \
     keyentry with lines lt 8 dt 2 lw 1 title "1 = ILP optimum"
call "plots/render.gp"
