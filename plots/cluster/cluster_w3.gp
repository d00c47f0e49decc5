# asrpt-F1: average JCT of every scheduler on the Tiresias 60-job trace
# (W3) on the 16-GPU testbed emulation (mean and 95% CI over replicates).
call "plots/style.gp" "9" "5"
set title "Average JCT on the Tiresias 60-job trace (16 GPUs; A-SRPT as reconstructed here)"
set ylabel "average JCT (s)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics rotate by 45 right
set yrange [0:*]
unset key
plot data("summary", "") using "jct_mean_mean":"jct_mean_ci95":xtic(1) lt 1
call "plots/render.gp"
