# pslocality-F4/F5: the randomized-rounding study, before repair. Left:
# distribution of rounded flow / LP optimum over every trial and instance,
# one curve per scaling kappa. Right: the packing violation factor (largest
# load / capacity) per kappa as box plots, and the shape of the theorem's
# bound, ln m / ln ln m (its constant is unknown to us). Two panels, so this
# script opens its PDF itself. Rounding reconstructed.
load "plots/style.gp"
ks = "1 1.5 2 lnm"
shape = real(system(sprintf("%s points | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}NR==2{print $c[\"shape\"]}'", EXPORT)))
set terminal pdfcairo size 13,5 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2 margins 0.07, 0.97, 0.13, 0.86 spacing 0.08 title "PS-locality: randomized rounding of the LP, before repair (reconstructed)"
set title "objective"
set xlabel "rounded flow slots / LP optimum"
set ylabel "fraction of trials"
set yrange [0:1]
set key bottom right title "kappa"
plot for [i=1:words(ks)] data("points", "--where kappa_name=".word(ks,i)) \
       using "ratio":(1.0) smooth cnormal with lines lt i title word(ks,i)
set title "packing"
set xlabel "scaling kappa"
set ylabel "largest load / capacity"
set yrange [0:*]
set style boxplot nooutliers
set style fill solid 0.5 border rgb "#333333"
set boxwidth 0.5
set xtics ("1" 1, "1.5" 2, "2" 3, "ln m" 4)
set xrange [0.3:4.7]
set key top left title ""
plot for [i=1:words(ks)] data("points", "--where kappa_name=".word(ks,i)) \
       using (i):"viol" with boxplot lt i dt 1 notitle, \
     shape with lines lt 8 dt 2 title "ln m / ln ln m", \
     1 with lines lt 7 dt 3 title "capacity"
unset multiplot
call "plots/render.gp"
