# Shared style of every schedbench figure: colour-blind-safe palette
# (Okabe & Ito 2008), labelled axes, PNG and PDF from one drawing.
# Scripts are run as: SB=bin/sb RESULTS=results/x.h5 OUT=plots/out/x gnuplot plots/x.gp
# SB, RESULTS and OUT from the environment, in one shell (a process costs a
# few ms of CPU), which also removes the exports of an earlier drawing of
# this figure that stopped before plots/render.gp (they may be older than
# RESULTS)
ENV_ = system("printf '%s\\n%s\\n%s' \"${SB:-bin/sb}\" \"${RESULTS}\" \"${OUT}\"; [ -z \"${OUT}\" ] || ! [ -d \"${OUT}.data\" ] || rm -rf \"${OUT}.data\"")
SB = ENV_[1:strstrt(ENV_, "\n") - 1]
ENV_ = ENV_[strstrt(ENV_, "\n") + 1:]
RESULTS = ENV_[1:strstrt(ENV_, "\n") - 1]
OUT = ENV_[strstrt(ENV_, "\n") + 1:]
undefine ENV_
set datafile columnheaders
set datafile missing "nan"
# Each line type differs from every other in colour or dash pattern, and
# carries its own point shape, so that series which overlap (a policy equal
# to another) or share a similar hue (blue and sky blue) stay apart. Line
# type 8 (black) is kept for reference lines (bounds, baselines).
set linetype 1 lc rgb "#0072B2" lw 2 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb "#E69F00" lw 2 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb "#009E73" lw 2 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb "#D55E00" lw 2 dt 1 pt 11 ps 0.8
set linetype 5 lc rgb "#CC79A7" lw 2 dt 2 pt 13 ps 0.8
set linetype 6 lc rgb "#56B4E9" lw 2 dt 4 pt 3 ps 0.8
set linetype 7 lc rgb "#999999" lw 2 dt 1 pt 15 ps 0.8
set linetype 8 lc rgb "#000000" lw 2 dt 1 pt 1 ps 0.8
set linetype 9 lc rgb "#F0E442" lw 3 dt 2 pt 2 ps 0.8
set linetype 10 lc rgb "#0072B2" lw 2 dt 3 pt 4 ps 0.8
set linetype 11 lc rgb "#E69F00" lw 2 dt 1 pt 6 ps 0.8
set linetype 12 lc rgb "#009E73" lw 2 dt 2 pt 8 ps 0.8
set linetype 13 lc rgb "#D55E00" lw 2 dt 3 pt 10 ps 0.8
set linetype 14 lc rgb "#CC79A7" lw 2 dt 4 pt 12 ps 0.8
set linetype 15 lc rgb "#56B4E9" lw 2 dt 1 pt 14 ps 0.8
set linetype 16 lc rgb "#000000" lw 2 dt 3 pt 5 ps 0.8
set linetype cycle 16
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
set key noenhanced
set termoption noenhanced
# data sources: a dataset of RESULTS as `sb export` prints it, with
# optional --where filters, exported once per figure (plots/data.awk):
# data("summary", "--where policy=x") in a plot command, and EXPORT in a
# command line, e.g. system(sprintf("%s points | awk ...", EXPORT)); it
# reads SB, RESULTS and OUT from the environment, as this file does
EXPORT = "awk -f plots/data.awk"
filter_(ds, where) = sprintf("< %s %s %s", EXPORT, ds, where)
# A series read through the filter costs a shell and an awk (about 7 ms of
# CPU; a figure has up to 50 series). So the first data() of a dataset with
# --where on a given list of columns splits the dataset by those columns in
# one pass (`plots/data.awk -- --split`, one file per combination of
# values), and data() names the file of its values, read by gnuplot with no
# process. REG_ holds "\036DATASET@COLS\037" and that split's "\nVALUES\tID"
# lines; a where that is not of the plain form, or whose values are not
# listed (spelled otherwise than in the rows: load=0.8 for 0.80), goes
# through the filter, which decides as `sb export --where` does.
REG_ = ""
wok_(w, i) = i > words(w) ? 1 : word(w, i) eq "--where" && i < words(w) && strstrt(word(w, i + 1), "=") > 1 && wok_(w, i + 2)
wcol_(w, i) = i > words(w) ? "" : (i > 2 ? "," : "").(t_ = word(w, i), t_[1:strstrt(t_, "=") - 1]).wcol_(w, i + 2)
wval_(w, i) = i > words(w) ? "" : (i > 2 ? "@" : "").(t_ = word(w, i), t_[strstrt(t_, "=") + 1:]).wval_(w, i + 2)
splitmap_(ds, cols) = (k_ = "\036".ds."@".cols."\037", p_ = strstrt(REG_, k_), p_ > 0 ? \
	(m_ = REG_[p_ + strlen(k_):]."\036", m_[1:strstrt(m_, "\036") - 1]) : \
	(m_ = "\n".system(sprintf("%s -- --split %s %s", EXPORT, cols, ds))."\n", REG_ = REG_.k_.m_, m_))
splitfile_(ds, cols, vals) = (m_ = splitmap_(ds, cols), q_ = strstrt(m_, "\n".vals."\t"), q_ == 0 ? "" : \
	(r_ = m_[q_ + strlen(vals) + 2:], sprintf("%s.data/%s@%s@%s", OUT, ds, cols, r_[1:strstrt(r_, "\n") - 1])))
data(ds, where) = where eq "" || !wok_(where, 1) ? filter_(ds, where) : \
	(f_ = splitfile_(ds, wcol_(where, 2), wval_(where, 2)), f_ eq "" ? filter_(ds, where) : f_)
# Each figure is drawn once, to OUT.pdf, and plots/render.gp makes OUT.png
# from that PDF: the data are read once (each `sb export` is a process) and
# the PNG is the same drawing as the report's PDF. A script with a fixed
# size starts with `call "plots/style.gp" "WIDTH_IN" "HEIGHT_IN"`, which
# opens OUT.pdf here; a script whose size depends on the data loads this
# file with no arguments and opens OUT.pdf itself with plots/pdf.gp.
if (ARGC >= 2) { call "plots/pdf.gp" ARG1 ARG2 }
