# oneflow-F13: boxing cost (units of |T|, same placement, default penalty
# policy) from every SBP to every SBP, one heat map per p = 2..8; log
# colour scale with a colour key ("1B": the one-byte tie-break of a local
# slice; a cost of 0 and 1B both take the bottom colour, the key's "0, 1B").
# Each cell carries its value, white on the dark half of the palette and
# black on the pale half.
load "plots/style.gp"
set xtics ("S(0)" 0, "S(1)" 1, "B" 2, "P" 3)
set ytics ("S(0)" 0, "S(1)" 1, "B" 2, "P" 3)
set grid noytics
set logscale cb
cbmin = 1e-6
cbmax = 100
set cbrange [cbmin:cbmax]
set cbtics ("0, 1B" 1e-6, "1e-4" 1e-4, "0.01" 0.01, "1" 1, "100" 100)
set cblabel "boxing cost / |T| (log scale)"
set palette defined (0 "#000004", 1 "#3b0f70", 2 "#8c2981", 3 "#de4968", 4 "#fe9f6d", 5 "#fcfdbf")
cell(x) = x > cbmin ? x : cbmin
lab(x) = x > 0 && x < 1e-3 ? "1B" : sprintf("%.3g", x)
# label colour: white where the cell's colour lies in the dark lower half of
# the palette, black elsewhere
labc(x) = (log10(cell(x)) - log10(cbmin)) / (log10(cbmax) - log10(cbmin)) < 0.5 ? 0xffffff : 0x000000
set terminal pdfcairo size 14,4 font "DejaVu Sans,9"
set output OUT.".pdf"
# fixed margins leave room on the right for the colour key of the last map
set multiplot layout 1,7 margins 0.045,0.915,0.13,0.86 spacing 0.025,0 \
    title "Boxing cost / |T| (rows: from, columns: to)"
set xlabel "to"
do for [p=2:8] {
  set title sprintf("p = %d", p)
  if (p == 2) { set ylabel "from" } else { unset ylabel }
  if (p == 8) { set colorbox user origin screen 0.93,0.13 size screen 0.012,0.73 } else { unset colorbox }
  plot data("points", sprintf("--where p=%d", p)) using "ti":"fi":(cell(column("cost_T"))) with image notitle, \
       data("points", sprintf("--where p=%d", p)) using "ti":"fi":(lab(column("cost_T"))):(labc(column("cost_T"))) \
       with labels font ",10" tc rgb variable notitle
}
unset multiplot
call "plots/render.gp"
