# pipeplan-F2: mean speed-up over one GPU (95% CI over random topologies)
# of every planner against the number of GPUs of seeded random irregular
# topologies, BERT-48 and GNMT-16, M = 16. Simulated. A planner with no
# feasible plan at some sizes has no point there; a note under each panel
# names the planners and sizes. DP is drawn under DP-overlap, which it
# nearly equals, with a wider line and a large hollow marker.
load "plots/style.gp"
models = system(sprintf("%s summary | awk 'NR>1{print $2}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
pls = system(sprintf("%s summary | awk 'NR>1{print $3}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
nm = words(models)
# a planner's line type from its place among all planners, so that its
# colour is the same in every panel
lti(x) = sum [i=1:words(pls)] (word(pls,i) eq x ? i : 0)
# planners that another planner, drawn after them, can cover (DP and
# DP-overlap differ only by the overlap of the gradient all-reduce): drawn
# wider, with a large hollow circle, so that they show around the other.
# Line style 100+i is planner i's line type, so changed for those.
under = " dp "
do for [i=1:words(pls)] {
  if (strstrt(under, " ".word(pls,i)." ") > 0) { set style line (100+i) lt i lw 4 pt 6 ps 1.4 } else { set style line (100+i) lt i }
}
lsi(x) = 100 + lti(x)
# per model, the planners with at least one feasible plan (a series without
# one would be an empty plot)
okpls(m) = system(sprintf("%s summary --where model=%s | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}$c[\"speedup_mean\"]!=\"nan\" && !s[$3]++{print $3}' | tr '\n' ' '", EXPORT, m))
# per model, the sizes at which a planner has no feasible plan, planners
# with the same sizes together: "dp, dp-overlap at 32, 64 GPUs; x at any size"
nofeas(m) = system(sprintf("%s summary --where model=%s | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{p=$c[\"planner\"]; if(!(p in o)){o[p]=n++;k[n-1]=p}; t[p]++; if($c[\"speedup_mean\"]==\"nan\"){b[p]++; g[p]=g[p] (g[p]==\"\"?\"\":\", \") $c[\"gpus\"]}}END{for(i=0;i<n;i++){p=k[i]; if(!b[p])continue; s=(b[p]==t[p])?\"at any size\":\"at \" g[p] \" GPUs\"; if(!(s in w)){w[s]=p; q[m++]=s} else w[s]=w[s] \", \" p} for(j=0;j<m;j++)printf \"%%s%%s %%s\", (j?\"; \":\"\"), w[q[j]], q[j]}'", EXPORT, m))
# topologies per size: with one (a QUICK run) there is no interval to draw
reps = int(system(sprintf("%s summary | awk 'NR>1 && $4>m {m=$4} END {print m+0}'", EXPORT)))
set logscale x 2
# keep the first and last sizes (and their error bars) off the frame
set offsets graph 0.05, graph 0.05, 0, 0
set xlabel "GPUs (random irregular topologies, log scale)"
set ylabel "speed-up over 1 GPU"
set yrange [0:*]
set key top left font ",7"
# error-bar styles blank a disc behind each central point (gnuplot 5.4);
# here the markers come from the linespoints drawn over the bars
unset pointintervalbox
set bmargin 5
set terminal pdfcairo size (5.2*nm),4.4 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 1,nm title "Random irregular topologies (simulated; SPP-R = our reconstruction)"
do for [m=1:nm] {
  set title word(models,m)
  mp = okpls(word(models,m)); nf = nofeas(word(models,m))
  if (strlen(nf) > 0) { set label 9 "no feasible plan, no point: ".nf at graph 0, graph 0 offset 0,-4 left font ",7" } else { unset label 9 }
  # error bars where there are replicates to give a confidence interval
  # (one topology per size has none), under the lines and markers of the
  # means
  if (reps > 1) {
    plot for [p=1:words(mp)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(mp,p))) \
           using "gpus":"speedup_mean":"speedup_ci95" with yerrorbars lt lti(word(mp,p)) lw 1.5 ps 0 notitle, \
         for [p=1:words(mp)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(mp,p))) \
           using "gpus":"speedup_mean" with linespoints ls lsi(word(mp,p)) title word(mp,p)
  } else {
    plot for [p=1:words(mp)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(mp,p))) \
           using "gpus":"speedup_mean" with linespoints ls lsi(word(mp,p)) title word(mp,p)
  }
}
unset multiplot
call "plots/render.gp"
