# tests/sync/cli.sh - command-line tests of the sync family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: sync ..." >&2

q="--workers 4 --horizon 120 --model softmax --target 0.5"
expect 0 "valid: yes" -- "$SB" eval sync --policy adsp $q --bound
expect 0 "blocked_s: 0" -- "$SB" eval sync --policy adsp $q
expect 0 "gap_bound" -- "$SB" eval sync --policy bsp $q --bound
# bad input: exit 2, the field named
expect 2 "H = 0.5" -- "$SB" eval sync --policy bsp $q --h 0.5
expect 2 "learning rate" -- "$SB" eval sync --policy bsp $q --lr 0
expect 2 "learning rate -1" -- "$SB" eval sync --policy bsp $q --lr -1
expect 2 "bandwidth" -- "$SB" eval sync --policy bsp $q --bw 0
expect 2 "slowest step" -- "$SB" eval sync --policy bsp $q --slow -1
expect 2 "--h 'x'" -- "$SB" eval sync --policy bsp $q --h x
expect 2 "--model 'cnn'" -- "$SB" eval sync --policy bsp $q --model cnn
expect 2 "not a registered" -- "$SB" eval sync --policy nosuch
expect 2 "nosuch.csv" -- "$SB" eval sync --policy bsp $q --digits "$tmp/nosuch.csv"
printf '1,2,3\n' > "$tmp/digits.csv"
expect 2 "line 1" -- "$SB" eval sync --policy bsp $q --digits "$tmp/digits.csv"
same_points_across_jobs sync_schemes
same_points_across_jobs sync_commit
# a malformed digits file in DATA_DIR stops the experiment before any point
mkdir -p "$tmp/dd/digits"
printf '0,1,2\n' > "$tmp/dd/digits/digits.csv"
expect 2 "line 1" -- "$SB" run sync_digits --quick --data-dir "$tmp/dd" --out "$tmp/dg.h5"
