# pslocality-F7: how far above the PS-locality ILP's lower bound every
# policy's flow time (slots) lies on small PS instances (mean and 95% CI
# over instances; 0 = at the bound).
load "plots/style.gp"
set title "PS-locality model, small instances: flow slots - ILP bound (reconstructed)"
set ylabel "flow time - bound (slots)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics rotate by 45 right
set yrange [0:*]
unset key
plot data("summary", "--where model=pslocality") using "gap_mean":"gap_ci95":xtic(3) lt 4
call "plots/render.gp" "9" "5"
