# awk -f plots/data.awk DATASET [--where col=value]...
# awk -f plots/data.awk -- --split COL[,COL]... DATASET
# The rows of one dataset of a results file as `sb export` prints them (a
# header line, then the rows that match every --where), for the plot
# scripts (plots/style.gp: data() and EXPORT). The environment names the
# files: SB (default bin/sb), RESULTS, OUT. A figure reads one dataset many
# times, often once per series, and every process started costs a few ms
# of CPU (sb about 9): so each dataset is exported once per figure, into
# OUT.data/ (emptied by plots/style.gp when a figure starts, removed by
# plots/render.gp), and filtered here. A --where value matches as in `sb
# export`: a string column by its text, a number by its value (`load=0.8`
# matches 0.80 too).
#
# --split writes the dataset once per combination of values of the columns
# (each file the header and the rows that every --where on those columns
# with those values selects) to OUT.data/DATASET@COLS@ID, and prints
# "VALUES<tab>ID" per combination, VALUES the values as they are spelled in
# the rows, joined by "@" (plots/style.gp reads a series from its file,
# with no process). Rows whose values are equal as numbers are one
# combination, under each spelling seen; a spelling with a character other
# than [A-Za-z0-9._+-] is not printed. It prints and writes nothing when a
# column is missing or there are more than 512 combinations. A series
# whose values are not printed goes through the filter.
function num(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function q(s) { gsub(/'/, "'\\''", s); return "'" s "'" }
function fail(msg) { printf "error: plots/data.awk: %s\n", msg > "/dev/stderr"; bad = 2; exit 2 }
BEGIN {
	sb = ENVIRON["SB"] != "" ? ENVIRON["SB"] : "bin/sb"
	res = ENVIRON["RESULTS"]
	out = ENVIRON["OUT"]
	if (ARGC < 2 || res == "" || out == "")
		fail("usage: SB=... RESULTS=... OUT=... awk -f plots/data.awk DATASET [--where col=value]...")
	nw = 0
	if (ARGV[1] == "--split") {
		if (ARGC != 4)
			fail("usage: awk -f plots/data.awk -- --split COL[,COL]... DATASET")
		split_cols = ARGV[2]
		ds = ARGV[3]
	} else {
		ds = ARGV[1]
		for (i = 2; i < ARGC; i += 2) {
			if (ARGV[i] != "--where" || i + 1 >= ARGC || index(ARGV[i + 1], "=") < 2)
				fail("expected --where col=value, not '" ARGV[i] (i + 1 < ARGC ? " " ARGV[i + 1] : "") "'")
			w[++nw] = ARGV[i + 1]
		}
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
# --split: the rows by the combination of their values (a number by its
# value, -0 as 0, apart from text), held until the end
split_cols != "" && NR == 1 {
	header = $0
	ns = split(split_cols, sc, ",")
	for (i = 1; i <= NF; i++)
		col[$i] = i
	for (k = 1; k <= ns; k++)
		if (!(sc[k] in col) || sc[k] !~ /^[A-Za-z0-9._+-]+$/)
			refuse = 1
	next
}
split_cols != "" {
	if (refuse)
		next
	key = spelled = ""
	safe = 1
	for (k = 1; k <= ns; k++) {
		x = $(col[sc[k]])
		key = key SUBSEP (num(x) ? (x + 0 == 0 ? "0" : sprintf("%.17g", x + 0)) : "t" x)
		if (x !~ /^[A-Za-z0-9._+-]+$/)
			safe = 0
		spelled = spelled (k > 1 ? "@" : "") x
	}
	if (!(key in gid)) {
		gid[key] = ++ngroups
		if (ngroups > 512)
			refuse = 1
	}
	g = gid[key]
	row[g, ++nrow[g]] = $0
	if (safe)
		spell[spelled] = g
	next
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
END {
	if (bad)
		exit bad
	if (split_cols == "" || refuse || NR == 0)
		exit 0
	for (g = 1; g <= ngroups; g++) {
		f = dir "/" ds "@" split_cols "@" g
		print header > f
		for (i = 1; i <= nrow[g]; i++)
			print row[g, i] > f
		close(f)
	}
	for (v in spell)
		printf "%s\t%d\n", v, spell[v]
}
