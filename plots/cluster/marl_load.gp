# marl-F3: average JCT of every heuristic and the learned placers against the offered load on T1
# (mean and 95% CI over traces; the same trace shapes at every load).
# Series are shifted a little along x so that their error bars stay apart.
call "plots/style.gp" "9" "5"
set title "Average JCT against load, T1 (marl.md setting, reconstructed)"
set xlabel "offered load rho (series shifted slightly for legibility)"
set ylabel "average JCT (s)"
set key outside right top
set xrange [0.43:0.97]
set yrange [0:*]
set xtics (0.5, 0.7, 0.9)
pols = system(sprintf("%s summary | awk 'NR>1 {print $1}' | sort -u | tr '\\n' ' '", EXPORT))
n = words(pols)
plot for [i=1:n] data("summary", "--where policy=".word(pols,i)) \
       using (column("load") + 0.008 * (i - (n + 1) / 2.0)):"jct_mean_mean":"jct_mean_ci95" \
       with yerrorlines title word(pols,i)
call "plots/render.gp"
