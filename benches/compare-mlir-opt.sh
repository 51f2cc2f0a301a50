#!/usr/bin/env bash
# Side-by-side comparison of fuser-opt and mlir-opt-19 on the same generated file:
# parse + verify + print of N generic ops (a mix of unregistered ops with attributes, a region
# op every 1,000 ops). Reports the wall time (best of R runs) and the peak RSS of both tools,
# and the ratios. Needs mlir-opt-19 (apt-get install mlir-19-tools) and /usr/bin/time.
#
# Usage: benches/compare-mlir-opt.sh [N=200000] [RUNS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200000}
RUNS=${2:-5}
MLIR_OPT=${MLIR_OPT:-mlir-opt-19}
cargo build --release -q -p fuser-opt-tool
FUSER_OPT=target/release/fuser-opt
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 benches/gen_ops.py "$N" nested -o "$tmp/in.mlir"
echo "input: $N ops + region ops every 1000 ($(wc -c <"$tmp/in.mlir") bytes), best of $RUNS runs"

# measure TOOL ARGS... -> prints "seconds max_rss_kb" of the best run
measure() {
  local best_t="" best_m=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" "$tmp/in.mlir" -o "$tmp/out.mlir"
    read -r t m <"$tmp/time"
    if [ -z "$best_t" ] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; fi
    if [ -z "$best_m" ] || [ "$m" -gt "$best_m" ]; then best_m=$m; fi
  done
  echo "$best_t $best_m"
}

for mode in custom generic; do
  flags=(--allow-unregistered-dialect)
  [ "$mode" = generic ] && flags+=(--mlir-print-op-generic)
  read -r ft fm < <(measure "$FUSER_OPT" "${flags[@]}")
  cp "$tmp/out.mlir" "$tmp/fuser.out"
  read -r mt mm < <(measure "$MLIR_OPT" "${flags[@]}")
  if cmp -s "$tmp/fuser.out" "$tmp/out.mlir"; then same="identical output"; else same="OUTPUT DIFFERS"; fi
  awk -v mode="$mode" -v ft="$ft" -v fm="$fm" -v mt="$mt" -v mm="$mm" -v same="$same" 'BEGIN{
    printf "%-8s fuser-opt %6.3f s %8.1f MB | mlir-opt-19 %6.3f s %8.1f MB | speed-up %.2fx, memory %.2fx less | %s\n",
      mode, ft, fm/1024, mt, mm/1024, mt/ft, mm/fm, same }'
done
