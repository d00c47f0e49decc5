# adsp-F1: per scheme, the convergence time (left) and how a worker spent
# the run (right: computation / blocked / communication, seconds per
# worker, mean over seeds). Compare the ranking with the authors' bars
# (BSP > SSP > Fixed ADACOMM > ADACOMM > ADSP, ADSP never blocked), not
# the seconds: the clock, model and data are substitutes.
load "plots/style.gp"
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set yrange [0:*]
set xtics rotate by -30
set key top left
do for [pass=1:2] {
  if (pass == 1) {
    set terminal pngcairo size 1100,420 font "DejaVu Sans,10"
    set output OUT.".png"
  } else {
    set terminal pdfcairo size 11,4.2 font "DejaVu Sans,9"
    set output OUT.".pdf"
  }
  set multiplot layout 1,2
  set title "Time to converge (10 checks below 1.05 x single-node loss)"
  set ylabel "simulated time to convergence (s)"
  set style histogram clustered
  plot data("summary", "") using "conv_time_mean":xtic(1) lt 1 title "convergence time"
  set title "Where a worker's time went (until convergence)"
  set ylabel "seconds per worker"
  set style histogram rowstacked
  plot data("summary", "") using "compute_mean":xtic(1) lt 2 title "computation", \
       "" using "blocked_mean" lt 3 title "blocked", \
       "" using "comm_mean" lt 4 title "communication"
  unset multiplot
}
set output
