# online_learn: advlearn F1, F2, F5 and the learned policies' empirical CR
# (reconstructed problem and training; the paper reports no numbers).
# (a) F1: training of the learned policy at the largest U/L: game value on
#     the adversary's batch, mean ratio of a fresh best-response adversary
#     (exploitability) and the worst ratio it found, ZCL on the same batch;
# (b) F2: mean posted price vs utilisation at mid horizon (unit demand),
#     next to ZCL's psi(z);
# (c) F5: exploitability (best-response mean ratio) of the per-round update
#     vs vanilla REINFORCE vs training on random inputs;
# One multiplot; the script opens its PDF itself.
# (d) F3 (learned): empirical CR (max over staircases, random inputs, hall
#     of fame and a best response aimed at each policy) vs U/L.
load "plots/style.gp"
uls = system(sprintf("%s points --where kind=iter --where variant=learned | awk 'NR>1 {print $3}' | sort -g -u | tr '\\n' ' '", EXPORT))
UL = word(uls, words(uls))
set terminal pdfcairo size 12,8.8 font "DejaVu Sans,9"
set output OUT.".pdf"
unset logscale
set multiplot layout 2,2 title sprintf("Adversarially learned posted prices (U/L = %s in a-c)", UL)
set key top right font ",8"
set title "(a) training (F1)"
set xlabel "iteration"
set ylabel "OPT / E[ALG]"
set logscale y
plot data("points", "--where kind=iter --where variant=learned --where ul=".UL) using "iter":"game" with linespoints lt 1 title "game value", \
     "" using "iter":"br" with linespoints lt 2 title "best response (mean)", \
     "" using "iter":"br_max" with linespoints lt 3 title "best response (worst)", \
     "" using "iter":"zcl" with linespoints lt 8 title "ZCL, same batch"
unset logscale y
set title "(b) learned price vs utilisation (F2)"
set xlabel "utilisation z at t = T/2"
set ylabel "mean posted price"
set key top left
plot data("points", "--where kind=price --where variant=learned --where ul=".UL) using "z":"price" with linespoints lt 1 title "learned", \
     data("points", "--where kind=price --where variant=learned-random --where ul=".UL) using "z":"price" with linespoints lt 2 title "learned-random", \
     data("points", "--where kind=price --where variant=learned-reinforce --where ul=".UL) using "z":"price" with linespoints lt 3 title "learned-reinforce", \
     data("points", "--where kind=price --where variant=learned --where ul=".UL) using "z":"psi" with lines lt 8 dt 2 title "ZCL psi(z)"
set title "(c) exploitability (F5)"
set xlabel "iteration"
set ylabel "best-response mean OPT / E[ALG]"
set logscale y
set key top right
plot data("points", "--where kind=iter --where variant=learned --where ul=".UL) using "iter":"br" with linespoints lt 1 title "per-round update", \
     data("points", "--where kind=iter --where variant=learned-reinforce --where ul=".UL) using "iter":"br" with linespoints lt 2 title "REINFORCE", \
     data("points", "--where kind=iter --where variant=learned-random --where ul=".UL) using "iter":"br" with linespoints lt 3 title "random inputs"
set title "(d) empirical competitive ratio (F3, learned)"
set xlabel "U/L (log scale)"
set ylabel "max OPT / E[ALG] (log scale)"
set logscale xy
set key top left
pols = system(sprintf("%s points --where kind=cr | awk 'NR>1 {print $23}' | sort -u | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("points", "--where kind=cr --where policy=".word(pols,i)) \
       using "ul":"cr" with linespoints lt i title word(pols,i), \
     data("points", "--where kind=cr --where policy=zcl") using "ul":"proven" with lines lt 8 dt 2 title "1 + ln(U/L)"
unset multiplot
call "plots/render.gp"
