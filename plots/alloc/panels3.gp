# Three panels, EXC, ENE and FAIR, rendered to OUT.png and OUT.pdf (a
# multiplot cannot go through plots/render.gp's replot). The caller sets
# TITLE, YLABEL and PANEL, a command that plots panel u (objective
# word(utils, u)); one legend, outside the right panel.
utils = "exc ene fair"
do for [fmt in "png pdf"] {
  if (fmt eq "png") { set terminal pngcairo size 1400,480 font "DejaVu Sans,10" } \
  else { set terminal pdfcairo size 14,4.8 font "DejaVu Sans,9" }
  set output OUT.".".fmt
  set multiplot layout 1,3 margins 0.06, 0.85, 0.13, 0.86 spacing 0.05 title TITLE
  do for [u=1:3] {
    set title word(utils, u)
    set ylabel (u == 1 ? YLABEL : "")
    if (u == 3) { set key at screen 0.995, graph 1 right top } else { unset key }
    eval PANEL
  }
  unset multiplot
  set output
}
