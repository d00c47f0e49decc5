# Three panels, EXC, ENE and FAIR, drawn once to OUT.pdf (14 x 4.8 in)
# and rasterised to OUT.png by plots/render.gp. The caller sets
# TITLE, YLABEL and PANEL, a command that plots panel u (objective
# word(utils, u)); one legend, outside the right panel.
utils = "exc ene fair"
set terminal pdfcairo size 14,4.8 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,3 margins 0.06, 0.85, 0.13, 0.86 spacing 0.05 title TITLE
do for [u=1:3] {
  set title word(utils, u)
  set ylabel (u == 1 ? YLABEL : "")
  if (u == 3) { set key at screen 0.995, graph 1 right top } else { unset key }
  eval PANEL
}
unset multiplot
call "plots/render.gp"
