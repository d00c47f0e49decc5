# oneflow-F9: every planner's cost over the ILP optimum per model and
# hierarchy (1 = optimal; the ILP is proven optimal on every graph here).
# Tic labels "model (hierarchy)": an @ in enhanced text is a phantom box
# and swallowed the separator.
call "plots/style.gp" "11" "5"
pls = system(sprintf("%s points | awk 'NR>1{print $5}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
set title "SBP planners against the ILP optimum"
set ylabel "cost / ILP optimum"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30 font ",8"
set key outside right top font ",8"
set yrange [0.9:*]
plot for [i=1:words(pls)] data("points", "--where planner=".word(pls,i)) \
       using "ratio_opt":xtic(sprintf("%s (%s)", strcol("model"), strcol("hier"))) lt i title word(pls,i)
call "plots/render.gp"
