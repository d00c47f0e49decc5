# pslocality-F7: how far above the PS-locality ILP's lower bound every
# policy's flow time (slots) lies on small PS instances (mean and 95% CI
# over instances; 0 = at the bound).
call "plots/style.gp" "9" "5"
set title "PS-locality model, small instances: flow slots - ILP bound (reconstructed)"
set ylabel "flow time - bound (slots)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border rgb "#333333"   # whiskers take the border colour: one dark grey, solid (dt 1 below)
set boxwidth 0.8
set xtics rotate by 45 right
# histograms do not autoscale to their error bars: the top of the axis is
# the highest mean + CI of the summary, so no whisker is cut off
ytop = real(system(sprintf("%s summary --where model=pslocality | awk 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{h=$c[\"gap_ci95\"];if(h!=h)h=0;v=$c[\"gap_mean\"]+h;if(v>x)x=v}END{print (x>0?x*1.08:1)}'", EXPORT)))
set yrange [0:ytop]
unset key
plot data("summary", "--where model=pslocality") using "gap_mean":"gap_ci95":xtic(3) lt 4 dt 1
call "plots/render.gp"
