# oneflow-F13: boxing cost (units of |T|, same placement, default penalty
# policy) from every SBP to every SBP, one heat map per p = 2..8; log
# colour scale ("1B": the one-byte tie-break of a local slice).
load "plots/style.gp"
set xtics ("S(0)" 0, "S(1)" 1, "B" 2, "P" 3)
set ytics ("S(0)" 0, "S(1)" 1, "B" 2, "P" 3)
set logscale cb
set cbrange [1e-6:100]
unset colorbox
set palette defined (0 "#000004", 1 "#3b0f70", 2 "#8c2981", 3 "#de4968", 4 "#fe9f6d", 5 "#fcfdbf")
lab(x) = x > 0 && x < 1e-3 ? "1B" : sprintf("%.3g", x)
set terminal pdfcairo size 14,4 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 1,7 title "Boxing cost / |T| (rows: from, columns: to)"
do for [p=2:8] {
  set title sprintf("p = %d", p)
  plot data("points", sprintf("--where p=%d", p)) using "ti":"fi":(column("cost_T") > 0 ? column("cost_T") : 1e-6) with image notitle, \
       data("points", sprintf("--where p=%d", p)) using "ti":"fi":(lab(column("cost_T"))) with labels font ",7" tc rgb "#ffffff" notitle
}
unset multiplot
call "plots/render.gp"
