# tests/cache/cli.sh - command-line tests of the cache family: sourced by
# tests/cli.sh (helpers, $SB and $tmp: tests/clilib.sh), not run on its own.
echo "cli: cache ..." >&2

same_points_across_jobs cache_hits cache_time

expect 0 "fifo" -- "$SB" list cache
expect 0 "shuffle" -- "$SB" list cache
# eval cache: a checked replay with Belady's MIN and the ratio
expect 0 "ratio_belady: " -- "$SB" eval cache --rmat 10 --k 4 --fanouts 5,10 --policy fifo --bound
expect 0 "valid: yes" -- "$SB" eval cache --sbm 2000 --P 2 --k 2 --policy static-degree-rep
expect 0 "simulated with cost model bgl-9.5" -- "$SB" eval cache --rmat 9 --policy lru --set meta_ns=7
printf '# SNAP\n1\t2\n2\t3\n3 3\n1 2\n3\t4\n4 1\n' > "$tmp/g.txt"
expect 0 "self_loops_dropped: 1" -- "$SB" eval cache --graph "$tmp/g.txt" --train-frac 1 --cache 2 --batch 1 --policy lfu
expect 0 "self-loops and 1 duplicate" -- "$SB" eval cache --graph "$tmp/g.txt" --train-frac 1 --cache 2 --batch 1 --policy lfu
# bad input exits 2 naming what is wrong
printf '1 2\n2 abc\n' > "$tmp/bad.txt"
expect 2 "line 2: field 'to'" -- "$SB" eval cache --graph "$tmp/bad.txt" --policy fifo
printf '1 2\n2 2147483648\n' > "$tmp/big.txt"
expect 2 "line 2: field 'to'" -- "$SB" eval cache --graph "$tmp/big.txt" --policy fifo
printf '# nothing\n' > "$tmp/empty.txt"
expect 2 "empty graph" -- "$SB" eval cache --graph "$tmp/empty.txt" --policy fifo
expect 2 "cannot" -- "$SB" eval cache --graph "$tmp/nonexistent.txt" --policy fifo
expect 2 "fan-out 2 is 0" -- "$SB" eval cache --rmat 8 --fanouts 5,0 --policy fifo
expect 2 "fan-out 1 is -5" -- "$SB" eval cache --rmat 8 --fanouts -5 --policy fifo
expect 2 "cache of 300 nodes" -- "$SB" eval cache --rmat 8 --cache 300 --policy fifo
expect 2 "not a registered cache policy" -- "$SB" eval cache --rmat 8 --policy nosuch
expect 2 "not a registered cache order" -- "$SB" eval cache --rmat 8 --order nosuch --policy fifo
expect 2 "one graph" -- "$SB" eval cache --rmat 8 --sbm 1000 --policy fifo
expect 2 "--rmat" -- "$SB" eval cache --rmat 40 --policy fifo
expect 2 "meta_nss" -- "$SB" eval cache --rmat 8 --policy fifo --set meta_nss=1
# the trace written by --schedule-out has one line per request
"$SB" eval cache --rmat 8 --policy fifo --schedule-out "$tmp/trace.txt" > "$tmp/out.txt" 2>&1 &&
	n=$(awk '$1 == "requests:" { print $2 }' "$tmp/out.txt") &&
	[ "$(grep -vc '^#' "$tmp/trace.txt")" = "$n" ] && ok || bad "eval cache --schedule-out: trace lines differ from requests"
# partitioners and proximity-aware ordering (part 2)
same_points_across_jobs cache_part cache_partilp cache_po
expect 0 "metis" -- "$SB" list cache
expect 0 "bgl-released" -- "$SB" list cache
expect 0 "valid: yes" -- "$SB" eval cache --rmat 9 --order po --policy fifo
expect 0 "remote_sample_nodes: " -- "$SB" eval cache --sbm 2000 --P 4 --partitioner metis --policy fifo
expect 0 "replication: " -- "$SB" eval cache --sbm 2000 --P 2 --partitioner pagraph --policy lru
expect 2 "not a registered cache partitioner" -- "$SB" eval cache --rmat 8 --partitioner nosuch --policy fifo
# accuracy check, system configurations, --set of policy parameters (part 3)
same_points_across_jobs cache_acc cache_sys
expect 2 "--set metis_ub (of metis) 'ub=5': field 'ub': out of range" -- "$SB" run cache_part --quick --set metis_ub=5 --out "$tmp/x.h5"
expect 2 "--set po_k (of po) 'k=0'" -- "$SB" run cache_sys --quick --set po_k=0 --out "$tmp/x.h5"
expect 2 "not a whole number" -- "$SB" run cache_sys --quick --set bgl_max_hop=2.5 --out "$tmp/x.h5"
mkdir -p "$tmp/nodata"
expect 2 "needs cora/cora.cites and cora/cora.content" -- "$SB" run cache_acc --quick --set graphs=1 --data-dir "$tmp/nodata" --out "$tmp/x.h5"
# sb adversary cache: the search against Belady's MIN on tiny graphs'
# sampling traces, and its bad input
expect 0 "worst_ratio: " -- "$SB" adversary cache --policy lru --iters 20
expect 0 "Belady's MIN, exact" -- "$SB" adversary cache --policy static-degree --iters 20
expect 0 "versus: lfu" -- "$SB" adversary cache --policy clock --versus lfu --iters 20
expect 0 "search: exhaustive" -- "$SB" adversary cache --policy fifo --set n=4 --exhaustive
expect 2 "unknown cache policy 'nosuch'" -- "$SB" adversary cache --policy nosuch
expect 2 "n" -- "$SB" adversary cache --policy lru --set n=11
expect 2 "more than" -- "$SB" adversary cache --policy lru --set n=10 --exhaustive
