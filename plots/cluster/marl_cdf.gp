# marl-F2: distribution of job completion times of every heuristic and the learned placers on T1
# at load 0.7 (all test traces pooled), one curve per scheme.
call "plots/style.gp" "9" "5"
set title "JCT distribution on T1, load 0.7 (marl.md setting, reconstructed)"
set xlabel "job completion time (s, log scale)"
set ylabel "fraction of jobs"
set logscale x
set yrange [0:1]
set key outside right top
pols = system(sprintf("%s summary | awk 'NR>1 {print $1}' | tr '\\n' ' '", EXPORT))
plot for [i=1:words(pols)] data("points", "--where policy=".word(pols,i)) \
       using "jct":(1.0) smooth cnormal with lines title word(pols,i)
call "plots/render.gp"
