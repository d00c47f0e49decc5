# bgl-F3: test accuracy per epoch of a 2-layer GraphSAGE-mean (plain C,
# core/cache/sage.c) whose mini-batches follow the uniform shuffle or
# BGL's proximity-aware order PO-K (K = 1, 4, 16); mean and 95% CI over
# seeds; one panel per graph (the labelled SBM with synthetic features;
# Cora with its real features when cora.content was supplied). Measured
# accuracy of real training runs, not a model. Opens its PDF itself.
load "plots/style.gp"
graphs = system(sprintf("%s summary | awk 'NR>1 && !s[$1]++ {print $1}' | tr '\\n' ' '", EXPORT))
orders = "shuffle po-1 po-4 po-16"
ng = words(graphs)
wpx = ng > 1 ? 560*ng : 800
set terminal pdfcairo size (wpx/100.0),4.8 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,ng title "GraphSAGE test accuracy per epoch: uniform shuffle vs proximity-aware ordering PO-K\n(measured; mean and 95% CI over seeds)"
do for [g=1:ng] {
  set title word(graphs,g)
  set xlabel "epoch"
  set ylabel "test accuracy"
  set key bottom right
  set offsets 0.3, 0.3, 0, 0
  plot for [i=1:words(orders)] data("summary", "--where graph=".word(graphs,g)." --where order=".word(orders,i)) \
         using (column("epoch") + 0.08*(i-2.5)):"test_acc_mean":"test_acc_ci95" with yerrorlines lt i title word(orders,i)
}
unset multiplot
call "plots/render.gp"
