#!/bin/sh
# shard.sh — the figures of docs/cluster.md:
#   1. per-shard throughput: one shard of the bf16 atan_bwd sweep over all
#      2^32 pairs (every default mode and the torch plan; the op as
#      bench/atan_bwd16.fpcore defines it, with a generated kernel, since
#      the shipped atan_bwd.cu is f32 only), cut into 4096 shards of 16
#      chunks; --threads 1 and 2; and the wall time of the whole sweep
#      projected from it for 1, 8 and 64 nodes of CORES cores;
#   2. the merge of PARTS parts (default 10,000) of a run, made by
#      bench/mkparts from one real shard, against reading their bytes
#      (cat > /dev/null), the baseline, in the same run.
# Usage (from the build directory): sh SRCDIR/bench/shard.sh [PARTS [CORES]]
set -eu
parts=${1:-10000}
cores=${2:-64}
ub=${UB:-./ulpbench}
mk=${MKPARTS:-./bench/mkparts}
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.2f", e - s }'; }

### 1. one shard of the sweep, 16 chunks of 65,536 pairs
run="$ub --fpcore $src/bench/atan_bwd16.fpcore --op atan_bwd16 --dtype bf16 --exhaustive -q"
$run --range 0x0:0xff >/dev/null # fill the compile cache
for t in 1 2; do
	s=$(now)
	$run --threads $t --shard 1234/4096 --partial "$dir/part.1234"
	e=$(since "$s")
	awk -v e="$e" -v t="$t" -v c="$cores" '
	function dur(s) { # seconds as hours, minutes or seconds
		return s >= 3600 ? sprintf("%.1f h", s / 3600) : \
		       s >= 60 ? sprintf("%.1f min", s / 60) : sprintf("%.0f s", s)
	}
	BEGIN {
		pairs = 16 * 65536; rate = pairs / e
		printf "shard 1234/4096 (%d pairs), --threads %d: %.2f s, %.0f pairs/s\n", pairs, t, e, rate
		if (t == 1) {
			core = 4294967296 / rate
			printf "  the whole sweep at that rate per core: %.1f core-hours; ", core / 3600
			printf "on 1, 8, 64 nodes of %d cores (one shard per core): %s, %s, %s\n",
				c, dur(core / c), dur(core / (8 * c)), dur(core / (64 * c))
		}
	}'
done

### 2. the merge of $parts parts
$ub --op atan_bwd -n $((parts * 65536)) -q --shard 0/$parts --partial "$dir/tmpl"
mkdir "$dir/parts"
$mk "$dir/tmpl" "$parts" "$dir/parts"
bytes=$(cat "$dir"/parts/part.* | wc -c)
s=$(now)
cat "$dir"/parts/part.* >/dev/null
r=$(since "$s")
# the merge's CPU time too, where /usr/bin/time is (wall time on a busy
# machine is mostly waiting)
timer=''
[ -x /usr/bin/time ] && timer="/usr/bin/time -f %U+%S -o $dir/cpu"
s=$(now)
$timer $ub merge "$dir/parts" --csv "$dir/merged.csv" -q
m=$(since "$s")
cpu=$(cat "$dir/cpu" 2>/dev/null || echo '?')
awk -v p="$parts" -v b="$bytes" -v r="$r" -v m="$m" -v cpu="$cpu" 'BEGIN {
	printf "merge of %d parts (%.0f MB): %.2f s (CPU: %s s user+sys); reading them: %.2f s (%.1fx)\n",
		p, b / 1e6, m, cpu, r, (r > 0 ? m / r : 0)
}'
