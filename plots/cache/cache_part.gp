# bgl-F4: every partitioner on three graphs at P = 4 machines (mean and
# 95% CI over seeds): the fraction of expanded frontier nodes that live on
# another machine (remote sampling requests, left) and of input feature
# rows fetched from another machine (right), counted in one epoch of the
# sampler's trace (fan-outs 5,10,15; exact counts, no time). The trace
# knows home machines only: PaGraph's replicas are not used there (its
# replication factor and replica-aware expectation are in the results).
# Two panels, so this script opens its PDF itself.
load "plots/style.gp"
graphs = system(sprintf("%s summary --where P=4 | awk 'NR>1 && !s[$1]++ {print $1}' | tr '\\n' ' '", EXPORT))
set terminal pdfcairo size 13,5.6 font "DejaVu Sans,9"
set output OUT.".pdf"
set multiplot layout 1,2 title "Partitioners, P = 4 machines: remote traffic of one sampled epoch (fan-outs 5,10,15; exact counts from the trace)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border rgb "#333333"   # whiskers take the border colour: one dark grey
set boxwidth 0.9
set xtics rotate by 40 right
set yrange [0:1.15]   # a fraction, but a 95% CI may reach past 1: room for whiskers and the key
set ytics 0,0.2,1
set ylabel "remote sampling requests / expanded nodes"
set key top right
plot for [i=1:words(graphs)] data("summary", "--where P=4 --where graph=".word(graphs,i)) \
     using "trace_req_frac_mean":"trace_req_frac_ci95":xtic(3) lt i dt 1 title word(graphs,i)
set ylabel "remote feature rows / requested rows"
plot for [i=1:words(graphs)] data("summary", "--where P=4 --where graph=".word(graphs,i)) \
     using "trace_rows_frac_mean":"trace_rows_frac_ci95":xtic(3) lt i dt 1 title word(graphs,i)
unset multiplot
call "plots/render.gp"
