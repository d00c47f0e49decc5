# adsp-F1d: sync_schemes's two panels on the scikit-learn digits (or the
# mixture when DATA_DIR has no digits/digits.csv: see the results' inputs):
# per scheme, the convergence time (left) and how a worker spent the run
# (right: computation / blocked / communication, seconds per worker, mean
# over seeds). Compare the ranking, not the seconds.
load "plots/style.gp"
data_note = "\n".system(sprintf("%s show %s | awk '$1 == \"inputs\" { sub(/^ *inputs +/, \"\"); sub(/ \\(.*/, \"\"); print }'", SB, RESULTS))
load "plots/sync/schemes.inc"
