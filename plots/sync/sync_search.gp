# adsp-F7: global test loss against simulated time (seed 0) for ADSP with
# its online search, Fixed ADACOMM, ADSP+ with the offline grid's ΔC
# drawn from the end of its grid search ("adsp-plus") and as if the search
# were free ("adsp-plus-nosearch"); dashed: the convergence threshold. The
# authors' figure shows the online search costing little against the
# offline one (adsp.md §6.7).
call "plots/style.gp" "10" "5.5"
pols = "adsp fixed-adacomm adsp-plus adsp-plus-nosearch"
cw(p) = sprintf("--where rep=0 --where kind=curve --where policy=%s", p)
stats data("points", "--where rep=0 --where kind=scheme") using "target" nooutput
tgt = STATS_min
stats data("points", "--where rep=0 --where kind=scheme --where policy=adsp-plus") using "search_s" nooutput
srch = STATS_max
set title sprintf("Online against offline commit-rate search (offline grid: %.0f simulated s)", srch)
set xlabel "simulated time (s)"
set ylabel "test loss (log scale)"
set logscale y
set key top right
plot for [i=1:words(pols)] data("points", cw(word(pols,i))) using "t":"loss" \
       with linespoints lt i title word(pols,i), \
     tgt with lines lt 8 dt 2 title "threshold"
call "plots/render.gp"
