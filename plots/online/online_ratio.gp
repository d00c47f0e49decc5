# online_ratio: advlearn F4 and F6 (large items; K = 2 resource types), from
# the competitive-ratio table's runs (reconstructed problem and training).
# (a) F4: mean OPT/E[ALG] on the uniform and log-uniform random inputs vs
#     U/L, small items (unit demands, C = 10) and large items (C = 4,
#     demands 1-2), every online policy;
# (b) F6: empirical competitive ratio (max over best response, staircases,
#     random inputs, exhaustive enumeration, annealing) with large items,
#     next to 1 + ln(U/L), which ZCL guarantees only for small items;
# (c) F6's second setting: the same with K = 2 resource types (capacities
#     4 + 4, demand vectors in {1,2}^2, bundle prices), where no policy has
#     a proven ratio; 1 + ln(U/L) drawn for scale only.
# One multiplot; the script opens its PDF itself.
load "plots/style.gp"
pols = system(sprintf("%s points | awk 'NR>1 {print $3}' | sort -u | tr '\\n' ' '", EXPORT))
set terminal pdfcairo size 16.5,5.2 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,3 title "Online policies on small items (unit demands, C = 10), large items (demands 1-2, C = 4) and K = 2 resource types (C = 4 + 4, demands 1-2 per type)"
set key top left font ",8"
set logscale x
set xlabel "U/L (log scale)"
set title "(a) average case (F4): mean OPT / E[ALG] on random inputs"
set ylabel "mean OPT / E[ALG]"
plot for [i=1:words(pols)] data("points", "--where regime=small --where policy=".word(pols,i)) \
       using "ul":"mean_rand" with linespoints lt i title word(pols,i)." (small)", \
     for [i=1:words(pols)] data("points", "--where regime=enum --where policy=".word(pols,i)) \
       using "ul":"mean_rand" with points lt i pt 6 ps 1.2 notitle
set title "(b) large items (F6): empirical CR, open circles in (a)"
set ylabel "max OPT / E[ALG] (log scale)"
set logscale y
plot for [i=1:words(pols)] data("points", "--where regime=enum --where policy=".word(pols,i)) \
       using "ul":"cr" with linespoints lt i title word(pols,i), \
     data("points", "--where regime=enum --where policy=zcl") using "ul":"ln_bound" with lines lt 8 dt 2 title "1 + ln(U/L)"
set title "(c) K = 2 resource types (F6): empirical CR\n(clipped at 1000; an infinite ratio, a policy that sells nothing, is not drawn)"
set yrange [1:1000]
plot for [i=1:words(pols)] data("points", "--where regime=k2 --where policy=".word(pols,i)) \
       using "ul":"cr" with linespoints lt i title word(pols,i), \
     data("points", "--where regime=k2 --where policy=zcl") using "ul":"ln_bound" with lines lt 8 dt 2 title "1 + ln(U/L) (no K = 2 guarantee)"
set autoscale y
unset logscale y
unset multiplot
call "plots/render.gp"
