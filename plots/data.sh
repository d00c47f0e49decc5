#!/bin/sh
# SB=bin/sb RESULTS=results/x.h5 OUT=plots/out/x \
#     sh plots/data.sh DATASET [--where col=value]...
# plots/data.awk from a shell, for use outside gnuplot: the rows of one
# dataset of a results file as `sb export` prints them, exported once into
# OUT.data/ and filtered. An export older than the results file (left by a
# figure that stopped early) is made afresh.
set -eu
if [ $# -lt 1 ] || [ -z "${RESULTS:-}" ] || [ -z "${OUT:-}" ]; then
	echo "error: plots/data.sh: usage: SB=... RESULTS=... OUT=... data.sh DATASET [--where col=value]..." >&2
	exit 2
fi
f="$OUT.data/$1"
if [ -e "$f" ] && ! [ "$f" -nt "$RESULTS" ]; then
	rm -f "$f"
fi
exec awk -f "$(dirname "$0")/data.awk" "$@"
