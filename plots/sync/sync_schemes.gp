# adsp-F1: per scheme, the convergence time (left) and how a worker spent
# the run (right: computation / blocked / communication, seconds per
# worker, mean over seeds). Compare the ranking with the authors' bars
# (BSP > SSP > Fixed ADACOMM > ADACOMM > ADSP, ADSP never blocked), not
# the seconds: the clock, model and data are substitutes.
data_note = ""
load "plots/sync/schemes.inc"
