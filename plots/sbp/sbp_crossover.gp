# oneflow-F8: share of the weight bytes the ILP optimum reads tensor-
# parallel (two GPT blocks, forward + backward) against b*s/h, one line per
# device hierarchy and hidden size; the analytic crossover b*s = 3h (dashed)
# and the factor-1.5 band around it. Cost model: bytes + 0.05 FLOPs.
call "plots/style.gp" "9" "5"
hs = system(sprintf("%s points | awk 'NR>1{print $1\":\"$3}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
set title "ILP optimum: tensor-parallel share vs tokens per hidden size"
set xlabel "b*s / h (log scale)"
set ylabel "weight bytes read split (tensor parallel)"
set logscale x 2
set yrange [-0.05:1.05]
set key outside right top font ",8"
set object 1 rect from 2,-0.05 to 4.5,1.05 fc rgb "#eeeeee" behind
set arrow 1 from 3,-0.05 to 3,1.05 nohead dt 2 lc rgb "#000000"
plot for [i=1:words(hs)] data("points", sprintf("--where hier=%s --where h=%s", \
       substr(word(hs,i),1,strstrt(word(hs,i),":")-1), substr(word(hs,i),strstrt(word(hs,i),":")+1,99))) \
       using "ratio":"tp_frac" with linespoints lt i title sprintf("p %s, h %s", \
       substr(word(hs,i),1,strstrt(word(hs,i),":")-1), substr(word(hs,i),strstrt(word(hs,i),":")+1,99))
call "plots/render.gp"
