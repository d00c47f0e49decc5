# pipeplan-F1: speed-up over one GPU of every planner per model, on T-a
# (2 x 8 V100, NVLink + 25 GbE) and T-b (4 x 4, PCIe + 10 GbE), M = 16.
# SPP-R is our reconstruction of the INFOCOM'22 planner. A missing bar:
# the planner found no plan that fits the GPUs (a note under each panel
# names them per model). Simulated; not comparable with the paper's
# testbed numbers.
load "plots/style.gp"
topos = system(sprintf("%s points | awk 'NR>1{print $3}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
nt = words(topos)
wide(t) = sprintf("< %s points --where topo=%s --where fits=1 | sh scripts/pivot model planner speedup", EXPORT, t)
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 noborder   # (dashed bar borders from the line types read badly)
set ylabel "speed-up over 1 GPU"
set yrange [0:*]
set key outside right top font ",8"
set bmargin 4
set terminal pdfcairo size 11,(3.6*nt) font "DejaVu Sans,8"
set output OUT.".pdf"
set multiplot layout nt,1 title "Every planner per model (M = 16; simulated; SPP-R = our reconstruction)"
do for [t=1:nt] {
  set title word(topos,t)
  # which planners found no fitting plan for which model (their bars are
  # missing), said in the panel rather than left to the caption
  nofit = system(sprintf("%s points --where topo=%s --where fits=0 | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{m=$c[\"model\"]; if(!(m in p)){o[n++]=m; p[m]=$c[\"planner\"]} else p[m]=p[m] \", \" $c[\"planner\"]}END{for(i=0;i<n;i++)printf \"%%s%%s: %%s\", i?\"; \":\"\", o[i], p[o[i]]}'", EXPORT, word(topos,t)))
  unset label 1
  # under the model names, where it covers no bar
  if (strlen(nofit) > 0) {
    set label 1 "no bar = no plan fits the GPUs' memory: ".nofit at graph 0, graph 0 offset 0,-2.6 left front font ",7"
  }
  ncol = int(system(sprintf("%s points --where topo=%s | sh scripts/pivot model planner speedup | head -1 | wc -w", EXPORT, word(topos,t))))
  plot for [c=2:ncol] wide(word(topos,t)) using c:xtic(1) title columnheader(c) lt (c-1)
}
unset multiplot
call "plots/render.gp"
