#!/bin/sh
# Layout tests (issue: one home per family):
#  - no engine source (core/*.c, core/*.h) names a family;
#  - `make new-family` adds a working family (sb list, sb eval, sb run, its
#    tests) in a scratch copy of the tree while touching no existing file;
#  - name collisions fail loudly: make new-baseline refuses a registered
#    name, and a duplicate registration fails the build naming both files.
# Needs a built tree (bin/sb, build/): `make test` builds it first.
set -u
SB=${SB_BIN:-bin/sb}
BUILD=${BUILD:-build}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "layout: FAIL: $*" >&2; }
echo "layout: engine names no family; a new family touches no existing file" >&2

# 1. the engine names no family (code or comment)
for f in $("$SB" list families | awk 'NR > 1 { print $1 }'); do
	U=$(echo "$f" | tr a-z A-Z)
	# sb_alloc_fail_at and sb_alloc_count are the engine's allocator (sb.h),
	# not the alloc family: the one prefix both spell
	hits=$(grep -nwE "$f|sb_${f}_[A-Za-z0-9_]*|SB_${U}_[A-Z0-9_]*" core/*.c core/*.h 2>/dev/null |
		grep -vE 'sb_alloc_(fail_at|count)\b|\(sb_alloc_fail_at\)' | head -3)
	[ -z "$hits" ] && ok || bad "engine names the family '$f': $hits"
done

# every algorithms/<paper>/ file says its family in its header, and what
# it registers belongs to that family
for f in algorithms/*/*.c algorithms/*/*.h; do
	fam=$(sed -n '1,/\*\//s/^ \* Family: \([a-z0-9]*\) .*/\1/p' "$f" | head -1)
	if [ -z "$fam" ] || ! "$SB" list families | awk 'NR > 1 { print $1 }' | grep -qx "$fam"; then
		bad "$f: its header names no registered family ('Family: NAME (core/NAME/).')"; continue
	fi
	other=$(scripts/gen-registry --names "$f" | awk -v fam="$fam" '{ t = $1; sub(/_.*/, "", t) } t != fam { print $1 }')
	[ -z "$other" ] && ok || bad "$f: header says $fam, registers a $other"
done

# 2. a new family in a scratch copy (with the build products, so only the
#    new files compile)
tmp=$(mktemp -d /tmp/sblayout.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
git ls-files -co --exclude-standard | while read -r f; do [ -f "$f" ] && echo "$f"; done |
	tar cf - -T - | tar xf - -C "$tmp"
# (a sanitizer build is not reused: the scratch build uses the default flags)
[ "$BUILD" = build ] && [ -d build ] && cp -r build "$tmp/build"
(
	cd "$tmp" || exit 1
	git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm base || exit 1
	make -s new-family NAME=toyfam >/dev/null || { echo "new-family failed"; exit 1; }
	make -s -j2 BUILD=build BIN=bin/sb WERROR=-Werror bin/sb build/sbtest >log 2>&1 || { tail -5 log; exit 1; }
	bin/sb list toyfam | grep -q "^toyfam *fifo" || { echo "sb list toyfam lacks fifo"; exit 1; }
	bin/sb list families | grep -q "^toyfam " || { echo "sb list families lacks it"; exit 1; }
	bin/sb eval toyfam --n 12 --policy fifo --bound | grep -q "^gap_opt: " ||
		{ echo "sb eval toyfam gave no gap"; exit 1; }
	bin/sb run toyfam_demo --quick --out r.h5 2>/dev/null || { echo "sb run toyfam_demo failed"; exit 1; }
	# its new files are untracked: the results must not claim a clean revision
	bin/sb show r.h5 | grep -q "git_dirty *1" || { echo "untracked files not recorded as git_dirty"; exit 1; }
	build/sbtest --filter 'toyfam/*' >log 2>&1 || { tail -3 log; exit 1; }
	changed=$(git status --porcelain | grep -v '^??')
	[ -z "$changed" ] || { echo "existing files changed: $changed"; exit 1; }
	new=$(git status --porcelain --untracked-files=all | awk '{ print $2 }' |
		grep -vE '^(core|baselines|experiments|plots|tests)/toyfam/|^templates/toyfam\.c$|^r\.h5$|^log$')
	[ -z "$new" ] || { echo "files outside <kind>/toyfam/: $new"; exit 1; }
) >"$tmp/out" 2>&1 && ok || bad "new family: $(tail -3 "$tmp/out")"

# 3. collisions
out=$(cd "$tmp" && sh scripts/new-baseline dag cp 2>&1); rc=$?
[ "$rc" -eq 2 ] && echo "$out" | grep -q "registered already, in algorithms/tfpart/cp.c" && ok ||
	bad "new-baseline dag cp: exit $rc: $out"
out=$(cd "$tmp" && sh scripts/new-baseline pipeline 1f1b 2>&1); rc=$?
[ "$rc" -eq 2 ] && ok || bad "new-baseline pipeline 1f1b: exit $rc: $out"
sed 's/"fifo"/"fifo"/' "$tmp/baselines/toyfam/fifo.c" > "$tmp/baselines/toyfam/fifo2.c"
out=$(cd "$tmp" && make -s BUILD=build BIN=bin/sb bin/sb 2>&1); rc=$?
[ "$rc" -ne 0 ] && echo "$out" | grep -q "baselines/toyfam/fifo.c and in baselines/toyfam/fifo2.c" && ok ||
	bad "a duplicate registration built (exit $rc): $out"
sed 's/sb_toyfam_policy_fifo/sb_toyfam_policy_fifo3/' "$tmp/baselines/toyfam/fifo.c" > "$tmp/baselines/toyfam/fifo2.c"
out=$(cd "$tmp" && make -s BUILD=build BIN=bin/sb bin/sb 2>&1); rc=$?
[ "$rc" -ne 0 ] && echo "$out" | grep -q 'toyfam name "fifo" is registered twice' && ok ||
	bad "a duplicate name built (exit $rc): $out"

echo "layout: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
