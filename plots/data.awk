# awk -f plots/data.awk DATASET [--where col=value]...
# The rows of one dataset of a results file as `sb export` prints them (a
# header line, then the rows that match every --where), for the plot
# scripts (plots/style.gp: data() and EXPORT). The environment names the
# files: SB (default bin/sb), RESULTS, OUT. A figure reads one dataset many
# times, often once per series, and every process started costs a few ms
# of CPU (sb about 9): so each dataset is exported once per figure, into
# OUT.data/ (emptied by plots/style.gp when a figure starts, removed by
# plots/render.gp), and filtered here. gnuplot starts this program directly
# (one shell and one awk per series). A --where value matches as in `sb
# export`: a string column by its text, a number by its value (`load=0.8`
# matches 0.80 too).
function num(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function q(s) { gsub(/'/, "'\\''", s); return "'" s "'" }
function fail(msg) { printf "error: plots/data.awk: %s\n", msg > "/dev/stderr"; bad = 2; exit 2 }
BEGIN {
	sb = ENVIRON["SB"] != "" ? ENVIRON["SB"] : "bin/sb"
	res = ENVIRON["RESULTS"]
	out = ENVIRON["OUT"]
	if (ARGC < 2 || res == "" || out == "")
		fail("usage: SB=... RESULTS=... OUT=... awk -f plots/data.awk DATASET [--where col=value]...")
	ds = ARGV[1]
	nw = 0
	for (i = 2; i < ARGC; i += 2) {
		if (ARGV[i] != "--where" || i + 1 >= ARGC || index(ARGV[i + 1], "=") < 2)
			fail("expected --where col=value, not '" ARGV[i] (i + 1 < ARGC ? " " ARGV[i + 1] : "") "'")
		w[++nw] = ARGV[i + 1]
	}
	dir = out ".data"
	f = dir "/" ds
	# exported by an earlier series of this figure? (written whole: a
	# temporary file renamed)
	if ((getline line < f) <= 0) {
		close(f)
		if (system(sprintf("mkdir -p %s && %s export %s %s > %s && mv %s %s || { rm -f %s; exit 1; }",
				   q(dir), q(sb), q(res), q(ds), q(f ".tmp"), q(f ".tmp"), q(f), q(f ".tmp"))) != 0) {
			bad = 1
			exit 1
		}
	}
	close(f)
	ARGV[1] = f
	ARGC = 2
}
NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	for (k = 1; k <= nw; k++) {
		e = index(w[k], "=")
		name = substr(w[k], 1, e - 1)
		val[k] = substr(w[k], e + 1)
		if (!(name in col))
			fail("--where '" w[k] "': dataset '" ds "' has no column '" name "'")
		c[k] = col[name]
		isnum[k] = num(val[k])
	}
	print
	next
}
{
	for (k = 1; k <= nw; k++) {
		x = $(c[k])
		if (isnum[k] && num(x) ? x + 0 != val[k] + 0 : x != val[k])
			next
	}
	print
}
END { if (bad) exit bad }
