# Open OUT.pdf at ARG1 x ARG2 inches for the one drawing of a figure
# (`call "plots/pdf.gp" "WIDTH_IN" "HEIGHT_IN"`; plots/style.gp calls it for
# scripts of a fixed size). plots/render.gp closes it and makes OUT.png.
set terminal pdfcairo size ARG1,ARG2 font "DejaVu Sans,9"
set output OUT.".pdf"
