# oneflow-F8: share of the weight bytes the ILP optimum reads tensor-
# parallel (two GPT blocks, forward + backward) against b*s/h, one panel per
# device hierarchy and one line per hidden size h; the analytic crossover
# b*s = 3h (dashed) and the factor-1.5 band around it (grey). Cost model:
# bytes + 0.05 FLOPs. The lines of the hidden sizes of a panel often lie on
# one another (the share depends on b*s/h alone): each h has its own colour
# and hollow point shape, and the line width and point size shrink as h
# grows, drawn widest first, so every h stays visible where they coincide.
# One key for all panels, in a free cell or below them.
load "plots/style.gp"
hs = system(sprintf("%s points | awk 'NR>1{print $3}' | sort -n | uniq | tr '\\n' ' '", EXPORT))
hiers = system(sprintf("%s points | awk 'NR>1{print $1}' | awk '!s[$0]++' | tr '\\n' ' '", EXPORT))
xr = system(sprintf("%s points | awk 'NR>1{if(n++==0||$5<a)a=$5; if($5>b)b=$5} END{print a, b}'", EXPORT))
nh = words(hs)
np = words(hiers)
nc = np < 3 ? np : 3
nr = (np + nc - 1) / nc
# the key goes into the first free cell of the last row, or, if every cell
# holds a panel, into a strip below them; inches: panels 3.4 x 3.0 and
# margins for tics, labels, titles and that strip
spare = np < nr*nc
ks = spare ? 0 : 0.55
W = 0.9 + 3.4*nc
H = 0.5 + 3.0*nr + 0.8*(nr - 1) + 0.5 + ks
lm = 0.75/W
rm = 1 - 0.15/W
bm = (0.5 + ks)/H
tm = 1 - 0.5/H
sx = 0.75/W
sy = 0.8/H
cw = (rm - lm - (nc - 1)*sx)/nc
ch = (tm - bm - (nr - 1)*sy)/nr
call "plots/pdf.gp" sprintf("%g", W) sprintf("%g", H)
# the j-th hidden size: line type, width, hollow point shape and size
hpt(j) = word("6 4 8 12 10 14", (j-1)%6 + 1) + 0
hlw(j) = 1 + 0.9*(nh - j)
hps(j) = 0.7 + 0.35*(nh - j)
hidx(h) = sum [j=1:nh] (word(hs,j) eq h ? j : 0)
xc = 3
f = 1.5
set logscale x 2
# a little room beyond the first and last b*s/h, so no point is cut
set xrange [(word(xr,1)+0)/1.25:(word(xr,2)+0)*1.25]
set yrange [-0.05:1.05]
set xlabel "b*s / h (log scale)"
set ylabel "tensor-parallel share of weight bytes"
set object 1 rect from xc/f, graph 0 to xc*f, graph 1 fc rgb "#e4e4e4" fs solid noborder behind
set arrow 1 from xc, graph 0 to xc, graph 1 nohead back lt 8 dt 2 lw 1.5
set multiplot layout nr,nc margins lm, rm, bm, tm spacing sx, sy \
    title "ILP optimum: tensor-parallel share vs tokens per hidden size"
unset key
do for [p=1:np] {
  hr = word(hiers,p)
  set title (strstrt(hr,"x") ? sprintf("hierarchy %s", hr) : sprintf("flat, p = %s", hr))
  hp = system(sprintf("%s points --where hier=%s | awk 'NR>1{print $3}' | sort -n | uniq | tr '\\n' ' '", EXPORT, hr))
  if (p == np && spare) {
    set key at screen lm + (np%nc)*(cw + sx) + cw/2, screen bm + ch/2 center center vertical \
        Left reverse font ",9" samplen 3 spacing 1.6 box
  }
  if (p == np && !spare) {
    set key at screen 0.5, screen 0.05/H center bottom vertical maxrows 2 \
        Left reverse font ",9" samplen 3 spacing 1.6 width 1
  }
  plot for [h in hp] data("points", sprintf("--where hier=%s --where h=%s", hr, h)) \
         using "ratio":"tp_frac" with linespoints lt hidx(h) dt 1 lw hlw(hidx(h)) \
         pt hpt(hidx(h)) ps hps(hidx(h)) notitle, \
       for [j=1:nh] keyentry with linespoints lt j dt 1 lw hlw(j) pt hpt(j) ps hps(j) title "h = ".word(hs,j), \
       keyentry with boxes fc rgb "#e4e4e4" fs solid 1.0 noborder title sprintf("b*s/h in [%g, %g] (factor %g)", xc/f, xc*f, f), \
       keyentry with lines lt 8 dt 2 lw 1.5 title sprintf("b*s = %gh (analytic crossover)", xc)
}
unset multiplot
call "plots/render.gp"
