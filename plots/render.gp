# Render the current plot to OUT.png and OUT.pdf (called by each script
# with `call "plots/render.gp" "WIDTH_IN" "HEIGHT_IN"` after its settings).
set terminal pngcairo size (ARG1*100),(ARG2*100) font "DejaVu Sans,10"
set output OUT.".png"
replot
set terminal pdfcairo size ARG1,ARG2 font "DejaVu Sans,9"
set output OUT.".pdf"
replot
set output
