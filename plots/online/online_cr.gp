# online-F3: empirical competitive ratio (max OPT / E[ALG] over staircases
# and random inputs) of every online policy against U/L, with ZCL's proven
# ratio 1 + ln(U/L) (small items). Reconstructed problem instantiation.
call "plots/style.gp" "8" "5"
set title "Empirical competitive ratio vs U/L (T = 60, C = 10, unit demands)"
set xlabel "U/L (log scale)"
set ylabel "max OPT / E[ALG] (log scale)"
set logscale xy
set key outside right top
pols = system(sprintf("%s points | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("points", "--where policy=".word(pols,i)) \
       using "ul":"cr" with linespoints lt i title word(pols,i), \
     data("points", "--where policy=zcl") using "ul":"ln_bound" with lines lt 8 dt 2 title "1 + ln(U/L)"
call "plots/render.gp"
