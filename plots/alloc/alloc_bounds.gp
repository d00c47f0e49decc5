# gadget-F6: how far below the GADGET configuration ILP's bound every
# policy's utility lies on small ring-all-reduce instances, under EXC, ENE
# and FAIR (mean and 95% CI over instances; 0 = at the bound; the bound is
# the optimum only where the ILP was proven optimal, see `optimal`).
call "plots/style.gp" "10" "5"
set title "GADGET model, small instances: bound - utility (reconstructed)"
set ylabel "bound - utility (utility units)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border rgb "#333333"   # whiskers take the border colour: one dark grey, solid (dt 1 below)
set boxwidth 0.8
set xtics rotate by 45 right
# histograms do not autoscale to their error bars: the top of the axis is
# the highest mean + CI of the summary, so no whisker is cut off
ytop = real(system(sprintf("%s summary --where model=gadget | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{h=$c[\"gap_ci95\"];if(h!=h)h=0;v=$c[\"gap_mean\"]+h;if(v>x)x=v}END{print (x>0?x*1.08:1)}'", EXPORT)))
set yrange [0:ytop]
set key top left
utils = "exc ene fair"
plot for [i=1:3] data("summary", "--where model=gadget --where util=".word(utils, i)) \
       using "gap_mean":"gap_ci95":xtic(3) lt i dt 1 title word(utils, i)
call "plots/render.gp"
