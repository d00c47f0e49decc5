# gadget-F4: share of job-slots whose ring sits on one server, per policy
# and objective (mean and 95% CI over instances). Tiresias and First-Fit
# ask for a fixed, small worker count, which always fits one server.
call "plots/style.gp" "10" "5"
set title "GADGET model: rings embedded on one server (reconstructed)"
set ylabel "share of job-slots on one server"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border rgb "#333333"   # whiskers take the border colour: one dark grey, solid (dt 1 below)
set boxwidth 0.8
set xtics rotate by 45 right
set yrange [0:1.1]
set key outside right top
utils = "exc ene fair"
plot for [i=1:3] data("summary", "--where util=".word(utils, i)) \
       using "local_mean":"local_ci95":xtic(2) lt i dt 1 title word(utils, i)
call "plots/render.gp"
