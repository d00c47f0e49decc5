#!/bin/sh
# Command-line tests of bin/sb: exit codes and messages on bad input, and
# determinism of results across worker counts (bit-exact, via --exact).
# This file holds the engine's checks; each family's are in
# tests/<family>/cli.sh, sourced below in sorted order (a new family's file
# is picked up as it is). Helpers: tests/clilib.sh.
here=$(dirname "$0")
. "$here/clilib.sh"

expect 2 "usage" -- "$SB"
expect 2 "unknown command" -- "$SB" frobnicate
expect 2 "unknown experiment" -- "$SB" run nosuch
expect 2 "unknown parameter" -- "$SB" run dag_density --set nosuch=1
expect 2 "out of range" -- "$SB" run dag_density --set reps=0
expect 2 "not a number" -- "$SB" run dag_density --set reps=x
expect 2 "jobs" -- "$SB" run dag_density --jobs 0
expect 2 "cannot open results" -- "$SB" show "$tmp/missing.h5"
printf 'not hdf5\n' > "$tmp/junk.h5"
expect 2 "not an HDF5" -- "$SB" show "$tmp/junk.h5"
expect 0 "heft" -- "$SB" list dag
expect 0 "dag_graphs" -- "$SB" list experiments
expect 0 "marl_train" -- "$SB" list first
expect 0 "marl_jct marl_train" -- "$SB" list after
# help: for every command, from one table
for c in list run export show eval verify-claims help; do
	expect 0 "usage: sb $c" -- "$SB" help $c
	expect 0 "usage: sb $c" -- "$SB" $c --help
done
expect 2 "unknown command 'nosuch'" -- "$SB" help nosuch
# safety: an output that is not a regular file is refused and left alone
expect 2 "not a regular file" -- "$SB" run dag_density --quick --out /dev/full
[ -c /dev/full ] && ok || bad "/dev/full is no longer a character device"
expect 1 "cannot write to standard output" -- sh -c "\"$SB\" list > /dev/full"
expect 2 "option '--seed' needs a value" -- "$SB" run dag_density --seed
expect 2 "no such directory" -- "$SB" run dag_density --quick --data-dir "$tmp/nodir"
# the flags every eval shares are parsed once
expect 2 "unknown family 'nosuch'" -- "$SB" eval nosuch --policy x
expect 2 "--policy given twice" -- "$SB" eval dag --policy heft --policy cpop --stg x --devices 2
expect 2 "unknown option '--bogus'" -- "$SB" eval dag --policy heft --bogus
expect 2 "option '--seed' needs a value" -- "$SB" eval dag --policy heft --seed

# determinism: same seed, 1 and 2 workers -> identical points (bit-exact)
if "$SB" run dag_density --quick --seed 7 --jobs 1 --out "$tmp/a.h5" 2>"$tmp/e1" &&
   "$SB" run dag_density --quick --seed 7 --jobs 2 --out "$tmp/b.h5" 2>"$tmp/e2"; then
	"$SB" export "$tmp/a.h5" points --exact > "$tmp/a.txt"
	"$SB" export "$tmp/b.h5" points --exact > "$tmp/b.txt"
	if cmp -s "$tmp/a.txt" "$tmp/b.txt" && [ "$(wc -l < "$tmp/a.txt")" -gt 1 ]; then ok
	else bad "points differ between --jobs 1 and --jobs 2"; fi
	"$SB" run dag_density --quick --seed 8 --jobs 2 --out "$tmp/c.h5" 2>/dev/null
	"$SB" export "$tmp/c.h5" points --exact > "$tmp/c.txt"
	if cmp -s "$tmp/a.txt" "$tmp/c.txt"; then bad "another seed gave the same points"; else ok; fi
	[ ! -e "$tmp/a.h5.partial" ] && ok || bad "checkpoint directory left behind"
	# an interrupted sweep resumes from its checkpoint and gives the same points
	expect 1 "stopped after 4 points" -- env SB_SWEEP_STOP_AFTER=4 "$SB" run dag_density --quick --seed 7 --jobs 1 --out "$tmp/r.h5"
	[ ! -e "$tmp/r.h5" ] && [ -d "$tmp/r.h5.partial" ] && ok || bad "interrupted run left a results file or no checkpoint"
	expect 0 "resuming, 4 of" -- "$SB" run dag_density --quick --seed 7 --jobs 2 --out "$tmp/r.h5"
	"$SB" export "$tmp/r.h5" points --exact > "$tmp/r.txt"
	cmp -s "$tmp/a.txt" "$tmp/r.txt" && ok || bad "resumed run differs from an uninterrupted one"
	# ... but not by another binary file (a copy: another inode)
	expect 1 "stopped after 4 points" -- env SB_SWEEP_STOP_AFTER=4 "$SB" run dag_density --quick --seed 7 --jobs 1 --out "$tmp/s.h5"
	cp "$SB" "$tmp/sb-copy"
	"$tmp/sb-copy" run dag_density --quick --seed 7 --jobs 2 --out "$tmp/s.h5" 2>"$tmp/s.err"
	! grep -q "resuming" "$tmp/s.err" && [ -f "$tmp/s.h5" ] && ok || bad "another binary file resumed the checkpoint"
	rm -f "$tmp/sb-copy"
	# export --where reads the filter columns first, then only the matching
	# rows: the same lines as filtering the whole export (string, integer
	# and double columns, several filters, a filter matching nothing)
	"$SB" export "$tmp/a.h5" points --exact > "$tmp/all.txt"
	pol=$(awk 'NR == 2 { print $2 }' "$tmp/all.txt")
	tgt=$(awk 'NR == 2 { print $NF }' "$tmp/all.txt")
	p=$(awk 'NR == 2 { print $(NF - 1) }' "$tmp/all.txt")
	"$SB" export "$tmp/a.h5" points --exact --where policy="$pol" --where target_edges="$tgt" > "$tmp/w1.txt"
	awk -v a="$pol" -v b="$tgt" 'NR == 1 || ($2 == a && $NF == b)' "$tmp/all.txt" > "$tmp/w2.txt"
	cmp -s "$tmp/w1.txt" "$tmp/w2.txt" && [ "$(wc -l < "$tmp/w1.txt")" -gt 1 ] && ok ||
		bad "export --where policy=$pol --where target_edges=$tgt differs from filtering the whole export"
	"$SB" export "$tmp/a.h5" points --exact --where p="$p" --where rep=0 > "$tmp/w1.txt"
	awk -v a="$p" 'NR == 1 || ($(NF - 1) == a && $5 == 0)' "$tmp/all.txt" > "$tmp/w2.txt"
	cmp -s "$tmp/w1.txt" "$tmp/w2.txt" && [ "$(wc -l < "$tmp/w1.txt")" -gt 1 ] && ok ||
		bad "export --where p=$p --where rep=0 differs from filtering the whole export"
	"$SB" export "$tmp/a.h5" points --exact --where policy=nosuch > "$tmp/w1.txt"
	head -1 "$tmp/all.txt" | cmp -s - "$tmp/w1.txt" && ok || bad "export --where matching no row is not the header alone"
	# the plot scripts' plots/data.sh (one export per figure, filtered by
	# awk) prints what sb export prints, for the same filters
	here_top=$(cd "$here/.." && pwd)
	pd() { SB="$SB" RESULTS="$tmp/a.h5" OUT="$tmp/fig" sh "$here_top/plots/data.sh" "$@"; }
	"$SB" export "$tmp/a.h5" points > "$tmp/d0.txt"
	pol=$(awk 'NR == 2 { print $2 }' "$tmp/d0.txt")
	p=$(awk 'NR == 2 { print $(NF - 1) }' "$tmp/d0.txt")
	for w in "" "--where policy=$pol" "--where p=$p --where rep=0" "--where policy=nosuch"; do
		# shellcheck disable=SC2086
		"$SB" export "$tmp/a.h5" points $w > "$tmp/d1.txt"
		# shellcheck disable=SC2086
		pd points $w > "$tmp/d2.txt"
		cmp -s "$tmp/d1.txt" "$tmp/d2.txt" && ok || bad "plots/data.sh points $w differs from sb export"
	done
	[ -f "$tmp/fig.data/points" ] && ok || bad "plots/data.sh kept no export of the figure"
	# plots/data.awk --split (plots/style.gp's data() reads its files): every
	# combination it lists holds what the filter prints for those values,
	# and together they hold every row
	pa() { SB="$SB" RESULTS="$tmp/a.h5" OUT="$tmp/fig" awk -f "$here_top/plots/data.awk" "$@"; }
	pa -- --split policy,rep points > "$tmp/map.txt"
	[ "$(wc -l < "$tmp/map.txt")" -gt 1 ] && ok || bad "plots/data.awk --split listed $(wc -l < "$tmp/map.txt") combinations"
	tab=$(printf '\t') rows=0 same=1
	while IFS="$tab" read -r v id; do
		pd points --where "policy=${v%@*}" --where "rep=${v#*@}" > "$tmp/d1.txt"
		cmp -s "$tmp/d1.txt" "$tmp/fig.data/points@policy,rep@$id" || { same=0; echo "  $v differs" >&2; }
		rows=$((rows + $(wc -l < "$tmp/d1.txt") - 1))
	done < "$tmp/map.txt"
	[ "$same" = 1 ] && [ "$rows" = $(($(wc -l < "$tmp/d0.txt") - 1)) ] && ok ||
		bad "plots/data.awk --split differs from the filter ($rows rows of $(($(wc -l < "$tmp/d0.txt") - 1)))"
	[ -z "$(pa -- --split policy,nosuch points)" ] && ok || bad "plots/data.awk --split listed a column the dataset lacks"
	# data() in gnuplot: a listed combination is its file, a value spelled
	# otherwise (rep=0.0) goes through the filter, with the same rows
	if command -v gnuplot >/dev/null 2>&1; then
		v=$(head -1 "$tmp/map.txt" | cut -f1)
		printf 'load "plots/style.gp"\nprint data("points", "--where policy=%s --where rep=%s")\nprint data("points", "--where policy=%s --where rep=%s.0")\n' \
			"${v%@*}" "${v#*@}" "${v%@*}" "${v#*@}" > "$tmp/d.gp"
		(cd "$here_top" && SB="$SB" RESULTS="$tmp/a.h5" OUT="$tmp/fig" gnuplot "$tmp/d.gp") > "$tmp/d.txt" 2>&1
		f1=$(sed -n 1p "$tmp/d.txt") f2=$(sed -n 2p "$tmp/d.txt")
		case "$f1 | $f2" in
		"$tmp/fig.data/points@policy,rep@"*" | < awk -f plots/data.awk points --where policy=${v%@*} --where rep=${v#*@}.0")
			(cd "$here_top" && SB="$SB" RESULTS="$tmp/a.h5" OUT="$tmp/fig" sh -c "${f2#< }") | cmp -s - "$f1" && ok ||
				bad "gnuplot data(): the filter and the split file differ" ;;
		*) bad "gnuplot data() gave '$f1' and '$f2'" ;;
		esac
	fi
	expect 2 "has no column 'nosuch'" -- pd points --where nosuch=1
	expect 2 "expected --where" -- pd points policy=x
	expect 1 "cannot open results" -- env SB="$SB" RESULTS="$tmp/none.h5" OUT="$tmp/fig2" sh "$here_top/plots/data.sh" points
	[ ! -e "$tmp/fig2.data/points" ] && ok || bad "plots/data.sh kept a failed export"
	expect 2 "dataset 'points' has no column 'nosuch'" -- "$SB" export "$tmp/a.h5" points --where nosuch=1
	expect 2 "expected col=value" -- "$SB" export "$tmp/a.h5" points --where nosuch
	# verify-claims: a claim whose rows are missing fails and the next is
	# still judged (exit 1); on QUICK results it is not judged (SKIP, exit
	# 0); a malformed check is bad input (exit 2)
	"$SB" run dag_density --seed 7 --set reps=1 --set levels=5 --set targets=1 --out "$tmp/full.h5" 2>/dev/null
	printf 'id\tpaper\tclaim\tsource\tfile\tcheck\nq-1\tt\tnothing to read\tO\tfull.h5\tmean(makespan | policy=nosuch) > 0\nq-2\tt\tsomething\tO\tfull.h5\tcount(makespan) >= 1\n' > "$tmp/claims.tsv"
	expect 1 "FAIL q-1 .*no rows  nothing to read" -- "$SB" verify-claims --claims "$tmp/claims.tsv" --results "$tmp"
	grep -q "^PASS q-2 " "$tmp/out" && grep -q "^1 passed, 1 failed$" "$tmp/out" && ok || bad "verify-claims stopped at a claim without rows"
	sed 's/full\.h5/a.h5/' "$tmp/claims.tsv" > "$tmp/claims-quick.tsv"
	expect 0 "SKIP q-1 .*not judged (QUICK)" -- "$SB" verify-claims --claims "$tmp/claims-quick.tsv" --results "$tmp"
	grep -q "^1 passed, 0 failed, 1 skipped$" "$tmp/out" && grep -q "^note: 2 claims were judged on QUICK" "$tmp/out" && ok || bad "verify-claims on QUICK results: $(tail -2 "$tmp/out")"
	printf 'id\tpaper\tclaim\tsource\tfile\tcheck\nq-3\tt\tbad\tO\ta.h5\tmean(makespan |\n' > "$tmp/claims2.tsv"
	expect 2 "line 2: field 'check'" -- "$SB" verify-claims --claims "$tmp/claims2.tsv" --results "$tmp"
	expect 0 "git_sha" -- "$SB" show "$tmp/a.h5"
	# --attr: root attributes of many files in one call, '-' when absent,
	# and the other files still answer when one cannot be read
	expect 0 "a.h5	1	-$" -- "$SB" show --attr quick,nosuch "$tmp/a.h5"
	expect 2 "cannot open results" -- "$SB" show --attr seed "$tmp/missing.h5" "$tmp/a.h5"
	grep -q "a.h5	7$" "$tmp/out" && ok || bad "show --attr stopped at an unreadable file"
	expect 2 "needs KEY" -- "$SB" show --attr "$tmp/a.h5"
	expect 0 "makespan" -- "$SB" export "$tmp/a.h5" summary
else
	bad "quick run failed: $(cat "$tmp/e1" "$tmp/e2" 2>/dev/null | tail -3)"
fi

# experiments/timings.tsv (the ETA of a first make reproduce) names only
# registered experiments, each with two times or '-'
if [ -r experiments/timings.tsv ]; then
	"$SB" list experiments | awk 'NR > 2 && NF { print $1 }' > "$tmp/exps"
	stale=$(awk 'FILENAME == ARGV[1] { e[$1] = 1; next } /^#/ { next }
		!($1 in e) || NF != 3 || $2 !~ /^([0-9.]+|-)$/ || $3 !~ /^([0-9.]+|-)$/ { print FNR ": " $0 }' \
		"$tmp/exps" experiments/timings.tsv)
	[ -z "$stale" ] && ok || bad "experiments/timings.tsv: $stale"
fi

# the families' checks
for f in "$here"/*/cli.sh; do
	[ -r "$f" ] || continue
	. "$f"
done

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
