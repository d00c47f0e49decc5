# pipeplan-F2: mean speed-up over one GPU (95% CI over random topologies)
# of every planner against the number of GPUs of seeded random irregular
# topologies, BERT-48 and GNMT-16, M = 16. Simulated.
load "plots/style.gp"
models = system(sprintf("%s summary | awk 'NR>1{print $2}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
pls = system(sprintf("%s summary | awk 'NR>1{print $3}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
nm = words(models)
# a planner's line type from its place among all planners, so that its
# colour is the same in every panel
lti(x) = sum [i=1:words(pls)] (word(pls,i) eq x ? i : 0)
# per model, the planners with at least one feasible plan (a series without
# one would be an empty plot) and those without, named under the panel
okpls(m) = system(sprintf("%s summary --where model=%s | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}$c[\"speedup_mean\"]!=\"nan\" && !s[$3]++{print $3}' | tr '\n' ' '", EXPORT, m))
nopls(m) = system(sprintf("%s summary --where model=%s | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{a[$3]=a[$3]||($c[\"speedup_mean\"]!=\"nan\");if(!($3 in o)){o[$3]=n++;k[n-1]=$3}}END{for(i=0;i<n;i++)if(!a[k[i]])printf \"%%s \",k[i]}'", EXPORT, m))
# topologies per size: with one (a QUICK run) there is no interval to draw
reps = int(system(sprintf("%s summary | awk 'NR>1 && $4>m {m=$4} END {print m+0}'", EXPORT)))
set logscale x 2
set xlabel "GPUs (random irregular topologies, log scale)"
set ylabel "speed-up over 1 GPU"
set yrange [0:*]
set key top left font ",7"
set terminal pdfcairo size (5.2*nm),4.2 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 1,nm title "Random irregular topologies (simulated; SPP-R = our reconstruction)"
do for [m=1:nm] {
  set title word(models,m)
  mp = okpls(word(models,m)); nf = nopls(word(models,m))
  if (strlen(nf) > 0) { set label 9 "no feasible plan at any size: ".nf at graph 0.02, graph 0.03 font ",7" } else { unset label 9 }
  # lines from the means; error bars where there are replicates to
  # give a confidence interval (one topology per size has none)
  if (reps > 1) {
    plot for [p=1:words(mp)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(mp,p))) \
           using "gpus":"speedup_mean" with linespoints lt lti(word(mp,p)) title word(mp,p), \
         for [p=1:words(mp)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(mp,p))) \
           using "gpus":"speedup_mean":"speedup_ci95" with yerrorbars lt lti(word(mp,p)) pt 0 notitle
  } else {
    plot for [p=1:words(mp)] data("summary", sprintf("--where model=%s --where planner=%s", word(models,m), word(mp,p))) \
           using "gpus":"speedup_mean" with linespoints lt lti(word(mp,p)) title word(mp,p)
  }
}
unset multiplot
call "plots/render.gp"
