#!/bin/sh
# SB=bin/sb RESULTS=results/x.h5 OUT=plots/out/x \
#     sh plots/data.sh DATASET [--where col=value]...
# The rows of one dataset of a results file as `sb export` prints them (a
# header line, then the rows that match every --where), for the plot
# scripts (plots/style.gp: data() and EXPORT), with the environment they
# run in (SB, default bin/sb; RESULTS; OUT). A figure reads one dataset
# many times, often once per series, and each start of sb costs about 9 ms
# of CPU against about 2 for awk; so each dataset is exported once per
# figure, into OUT.data/ (removed by plots/render.gp), and filtered here.
# A --where value matches as in `sb export`: a string column by its text, a
# number by its value (`load=0.8` matches 0.80 too).
set -eu
if [ $# -lt 1 ] || [ -z "${RESULTS:-}" ] || [ -z "${OUT:-}" ]; then
	echo "error: plots/data.sh: usage: SB=... RESULTS=... OUT=... data.sh DATASET [--where col=value]..." >&2
	exit 2
fi
sb=${SB:-bin/sb} res=$RESULTS out=$OUT ds=$1
shift
where=""
while [ $# -gt 0 ]; do
	case "$1 ${2-}" in
	"--where "*=*" "*) echo "error: plots/data.sh: --where '$2': a value with a space" >&2; exit 2 ;;
	"--where "*=*) where="$where $2"; shift 2 ;;
	*) echo "error: plots/data.sh: expected --where col=value, not '$*'" >&2; exit 2 ;;
	esac
done
dir="$out.data"
f="$dir/$ds"
# a file left by a figure that stopped early is used only if it is newer
# than the results it came from
if ! [ "$f" -nt "$res" ]; then
	mkdir -p "$dir"
	"$sb" export "$res" "$ds" > "$f.$$" || { rm -f "$f.$$"; exit 1; }
	mv "$f.$$" "$f"
fi
[ -z "$where" ] && exec cat "$f"
exec awk -v where="$where" -v ds="$ds" '
function num(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	n = split(where, w, " ")
	for (k = 1; k <= n; k++) {
		e = index(w[k], "=")
		name = substr(w[k], 1, e - 1)
		val[k] = substr(w[k], e + 1)
		if (!(name in col)) {
			printf "error: --where '\''%s'\'': dataset '\''%s'\'' has no column '\''%s'\''\n", w[k], ds, name > "/dev/stderr"
			bad = 1
			exit 2
		}
		c[k] = col[name]
		isnum[k] = num(val[k])
	}
	print
	next
}
{
	for (k = 1; k <= n; k++) {
		x = $(c[k])
		if (isnum[k] && num(x) ? x + 0 != val[k] + 0 : x != val[k])
			next
	}
	print
}
END { if (bad) exit 2 }' "$f"
