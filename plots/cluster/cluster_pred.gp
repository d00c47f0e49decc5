# asrpt-F7: accuracy of iteration-count predictors against history size
# on W1 (mean and 95% CI over workloads): MAPE (left) and R^2 of ln n
# (right). Two panels, so this script opens its PDF itself.
load "plots/style.gp"
pols = "random-forest least-squares family-mean last-value median noise-floor"
set terminal pdfcairo size 13,5 font "DejaVu Sans,9"
set output OUT.".pdf"
# one legend, outside the right panel: both panels show the same series
set multiplot layout 1,2 margins 0.07, 0.83, 0.12, 0.88 spacing 0.08 title "Iteration-count predictors vs history (W1; noise floor = the generator's own noise)"
set xlabel "history (completed jobs, log scale)"
set logscale x
set ylabel "MAPE (fraction, log scale)"
set logscale y
set yrange [*:*]
unset key
plot for [i=1:words(pols)] data("summary", "--where predictor=".word(pols,i)) \
       using "history":"mape_mean":"mape_ci95" with yerrorlines title word(pols,i)
unset logscale y
set ylabel "R^2 of ln(iterations)"
# R^2 is at most 1; below, as far as the intervals reach
set yrange [*:1]
set key at screen 0.99, graph 1 right top
plot for [i=1:words(pols)] data("summary", "--where predictor=".word(pols,i)) \
       using "history":"r2_log_mean":"r2_log_ci95" with yerrorlines title word(pols,i)
unset multiplot
call "plots/render.gp"
