# smd-F3: step time of one PS job per DL2 model with 8 workers and 4 PSs
# spread across servers, layered (WFBP overlap) against non-layered
# (compute, then every layer's transfer). Model reconstructed; the layers of
# resnet-50 and vgg-16 are Tiresias's tensor sizes (when DATA_DIR has them),
# the others synthetic (column "layers").
call "plots/style.gp" "9" "5"
set title "SMD model: step time with 8 workers and 4 PSs, layered vs non-layered (reconstructed)"
set xlabel "DL2 model (* synthetic layers)"
set ylabel "step time (s, log scale)"
set logscale y
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.7 border rgb "#333333"
set boxwidth 0.9
set xtics rotate by -25 nomirror
set yrange [0.1:20]
set key top center horizontal
# a star marks the models whose layers are synthetic (no Tiresias tensors)
lab(m, l) = l eq "synthetic" ? m."*" : m
plot data("points", "--where workers=8 --where ps=4") using "tau_flat":xtic(lab(strcol("model"), strcol("layers"))) lt 2 dt 1 title "non-layered", \
     "" using "tau_layered" lt 1 dt 1 title "layered (WFBP)"
call "plots/render.gp"
