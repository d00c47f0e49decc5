# Close OUT.pdf, the figure's one drawing (opened by plots/pdf.gp), and
# rasterise it to OUT.png at 110 pixels per inch with pdftoppm
# (poppler-utils): PNG and PDF are the same drawing, and the data behind it
# were read once. A failure is printed (make reproduce fails on any gnuplot
# output) and gnuplot exits with status 1. Called last by every script:
# `call "plots/render.gp"`.
set output
render_err = system(sprintf("rm -rf '%s.data'; pdftoppm -png -r 110 -singlefile '%s.pdf' '%s' 2>&1 || echo 'pdftoppm failed'", OUT, OUT, OUT))
if (strlen(render_err) > 0) { print "error: cannot rasterise ".OUT.".pdf: ".render_err; exit status 1 }
