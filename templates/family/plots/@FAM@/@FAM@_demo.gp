# @FAM@-F1: objective / optimum per policy and instance size (mean and 95%
# CI over random instances). >= 1 by construction.
call "plots/style.gp" "8" "5"
set title "@FAM@: every policy against the optimum"
set xlabel "jobs"
set ylabel "objective / optimum"
set logscale x 2
set key outside right top
pols = system(sprintf("%s export %s summary | awk 'NR>1 {print $2}' | sort -u | tr '\\n' ' '", SB, RESULTS))
plot for [i=1:words(pols)] data("summary", "--where policy=".word(pols,i)) \
       using "n":"ratio_opt_mean":"ratio_opt_ci95" with yerrorlines lt i title word(pols,i), \
     1 with lines lt 8 dt 2 title "optimum"
call "plots/render.gp"
