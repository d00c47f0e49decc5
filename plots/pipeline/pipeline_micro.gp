# pipeplan-F3: iteration time of every planner against the number of
# microbatches at a fixed global batch, on T-a. Simulated.
load "plots/style.gp"
models = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
pls = system(sprintf("%s points | awk 'NR>1{print $5}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
nm = words(models)
# a planner's line type from its place among all planners (same colour in
# every panel); per model, the planners with at least one plan that fits
# (a series without one would be an empty plot) and those without, named
# under the panel
lti(x) = sum [i=1:words(pls)] (word(pls,i) eq x ? i : 0)
okpls(m) = system(sprintf("%s points --where model=%s --where fits=1 | awk 'NR>1 && !s[$5]++{print $5}' | tr '\n' ' '", EXPORT, m))
nopls(m) = system(sprintf("%s points --where model=%s | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{a[$5]=a[$5]||($c[\"fits\"]==1);if(!($5 in o)){o[$5]=n++;k[n-1]=$5}}END{for(i=0;i<n;i++)if(!a[k[i]])printf \"%%s \",k[i]}'", EXPORT, m))
set logscale x 2
set xlabel "microbatches M (log scale)"
set ylabel "iteration time (s)"
set yrange [0:*]
set key top right font ",7"
set terminal pdfcairo size (5.2*nm),4.2 font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout 1,nm title "Iteration time vs microbatches (T-a; simulated; SPP-R = our reconstruction)"
do for [m=1:nm] {
  set title word(models,m)
  mp = okpls(word(models,m)); nf = nopls(word(models,m))
  if (strlen(nf) > 0) { set label 9 "no plan that fits memory at any M: ".nf at graph 0.02, graph 0.03 font ",7" } else { unset label 9 }
  plot for [p=1:words(mp)] data("points", sprintf("--where model=%s --where planner=%s --where fits=1", word(models,m), word(mp,p))) \
         using "M":"iter_time" with linespoints lt lti(word(mp,p)) title word(mp,p)
}
unset multiplot
call "plots/render.gp"
