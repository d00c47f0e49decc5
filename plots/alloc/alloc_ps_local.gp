# pslocality-F3: per scheme, the fraction of job-slots in the local regime
# (all workers and PSs of the job on one machine), mean over instances
# (the 95% CI is in the summary; with few instances it would reach past 1). RR-kappa (pslocality) and OASiS are our reconstructions.
call "plots/style.gp" "8" "5"
set title "PS-locality model: job-slots in the local regime (reconstructed)"
set ylabel "fraction of job-slots local"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border rgb "#333333"
set boxwidth 0.8
set xtics rotate by 45 right
set yrange [0:1.05]
set xlabel "scheme"
unset key
plot data("summary", "") using "local_mean":xtic(1) lt 1 dt 1
call "plots/render.gp"
