#!/bin/sh
# The report as a reader gets it: every claim of experiments/claims.tsv
# appears in the PDF's text whatever the verdict (PASS, FAIL, SKIP), the
# verdict table breaks across pages, LaTeX specials and | < > ~ come out
# as typed, and the PDF carries its title. Builds the report from a
# verdict file written here, in a scratch copy (no results needed).
set -u
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "paper: FAIL: $*" >&2; }
if ! command -v pdflatex >/dev/null 2>&1 || ! command -v pdftotext >/dev/null 2>&1; then
	echo "paper: pdflatex or pdftotext missing (make deps installs them)" >&2
	echo "paper: 0 passed, 1 failed"; exit 1
fi
echo "paper: the report's verdict table and escapes" >&2
tmp=$(mktemp -d /tmp/sbpaper.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/results" "$tmp/scripts" "$tmp/experiments" "$tmp/paper" "$tmp/plots/out"
cp scripts/paper scripts/paper-facts-* "$tmp/scripts/"
cp -r paper/external "$tmp/paper/"
cp experiments/claims.tsv "$tmp/experiments/"
cp paper/report.tex "$tmp/paper/"
# every claim, with verdicts in turn, and a claim text full of specials
awk -F'\t' 'NR > 1 && $1 !~ /^#/ && NF {
	v = (NR % 3 == 0) ? "PASS" : (NR % 3 == 1) ? "FAIL" : "SKIP"
	if (v == "SKIP")
		printf "SKIP %-8s [%s] not judged (QUICK): no matching rows in x.h5 (none): %s\n", $1, $2, $3
	else
		printf "%s %-8s [%s, %s] 1.5 vs 2  %s\n         check: %s\n", v, $1, $2, $4, $3, $6
}' experiments/claims.tsv > "$tmp/results/claims.txt"
printf 'PASS zz-9     [t, O] 3 vs 2  a | b < c > d ~ e & f %% g _ h $ i # j\n         check: x\n' >> "$tmp/results/claims.txt"
printf 'zz-9\tt\ta | b < c > d ~ e\tO\tx.h5\tcount(x) >= 1\n' >> "$tmp/experiments/claims.tsv"
# a full-size FAIL without its reasoned paragraph: the PDF says so and the
# build fails, naming the claim
if (cd "$tmp" && SB=/nonexistent sh scripts/paper) >"$tmp/log" 2>&1; then
	bad "a claim not reproduced without paper/why/ID.tex did not fail the report"
else
	grep -q "INCOMPLETE.*without their explanation.*$(awk '/^FAIL /{print $2; exit}' "$tmp/results/claims.txt")" "$tmp/log" &&
	pdftotext "$tmp/paper/report.pdf" - | grep -q "Not explained yet" && ok ||
		bad "the failure does not name the claims: $(tail -2 "$tmp/log")"
fi
mkdir -p "$tmp/paper/why"
for id in $(awk '/^FAIL /{print $2}' "$tmp/results/claims.txt"); do
	printf 'Reason for %s: measured \\measured{%s}, verdict \\verdict{%s}.\n' "$id" "$id" "$id" > "$tmp/paper/why/$id.tex"
done
if (cd "$tmp" && SB=/nonexistent sh scripts/paper) >"$tmp/log" 2>&1; then ok; else
	bad "scripts/paper failed: $(tail -5 "$tmp/log")"; fi
if [ -f "$tmp/paper/report.pdf" ]; then
	pdftotext "$tmp/paper/report.pdf" "$tmp/report.txt"
	lost=$(awk -F'\t' 'NR > 1 && $1 !~ /^#/ && NF { print $1 }' "$tmp/experiments/claims.tsv" |
		while read -r id; do grep -qF -- "$id" "$tmp/report.txt" || printf ' %s' "$id"; done)
	[ -z "$lost" ] && ok || bad "claims missing from the PDF:$lost"
	# (pdftotext drops the spaces around these glyphs and the underscore rule)
	tr -d ' _\n' < "$tmp/report.txt" | grep -qF 'a|b<c>d∼e&f%gh$i#j' && ok ||
		bad "specials do not come out as typed: $(grep -F 'zz-9' "$tmp/report.txt" | head -2)"
	grep -q "not judged" "$tmp/report.txt" && ok || bad "a SKIP verdict is not shown as not judged"
	id=$(awk '/^FAIL /{print $2; exit}' "$tmp/results/claims.txt")
	grep -q "Reason for $id: measured 1.5 vs 2, verdict not reproduced" "$tmp/report.txt" && ok ||
		bad "the explanation of $id (with its generated value and verdict) is not in the PDF"
	pdfinfo "$tmp/paper/report.pdf" 2>/dev/null | grep -q "^Title: *schedbench" && ok || bad "the PDF has no title"
fi
# Prose states no verdict and no measured number by hand: verdicts come
# from \verdict{id}, numbers from \measured{id}, generated tables or the
# macros of scripts/paper-facts-*. A heuristic over the source: a verdict
# word, or a number in the forms the report uses only for measurements
# (thousands separated by {,}, seconds as 123\,s). Numbers from the papers
# are typed as the papers print them (157\%, 3,579~s) and are not caught.
hand=$(for f in paper/report.tex paper/why/*.tex; do
	sed -e 's/^%.*//' -e 's/\([^\\]\)%.*/\1/' "$f" | grep -n -E '[0-9]\{,\}[0-9]{3}|[0-9]\\,s\b|\b(PASS|FAIL)\b|(is|are|not) reproduced' |
		grep -v 'section\*{Why these claims are not reproduced}' | sed "s|^|$f:|"
done)
[ -z "$hand" ] && ok || bad "prose types a verdict or a measured number by hand (use the verdict or measured macros, or a generated one):
$hand"
# The why-paragraphs explain measurements, so a decimal with two or more
# digits there is a measured value typed by hand unless it is inside math
# ($...$, where the formulas of the models live): it must come from a
# macro of scripts/paper-facts-* instead.
hand=$(for f in paper/why/*.tex; do
	sed -e 's/^%.*//' -e 's/\([^\\]\)%.*/\1/' -e 's/\$[^$]*\$//g' "$f" |
		grep -n -E '(^|[^0-9.])[0-9]+\.[0-9]{2,}' | sed "s|^|$f:|"
done)
[ -z "$hand" ] && ok || bad "a why-paragraph types a measured decimal by hand (use a macro of scripts/paper-facts-*):
$hand"
echo "paper: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
