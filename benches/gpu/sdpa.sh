#!/usr/bin/env bash
# fusion.sdpa on the cuda backend: generated single-rank programs (out and lse) in bf16, f16 and
# f32, multi-head and grouped-query, causal or not, through the tensor-core kernels (bf16/f16, D
# a multiple of 16 up to 128: the FA2-style one by default, the first one with
# FUSER_SDPA_KERNEL=v1, which this script passes through) and the SIMT kernel (f32, or D = 40,
# or D = 256), each checked
# with `--check` against the f64 reference; then the test/Run/ops/sdpa*.mlir programs (heads split
# over ranks: ranks share GPU 0, no collective joins them). Prints PASS/FAIL per case, a total,
# and the mean time per iteration of the large cases with the implied TFLOP/s
# (4 B H S Skv D flops, halved when causal and S = Skv). FUSER_SDPA_BACKEND=cpu runs the
# checked cases on the cpu backend (to test this script). Logs under $OUT (default
# /tmp/fuser-gpu-out/sdpa). Binary: $FUSER_RUN, else .gpu/fuser-run, else
# target/release/fuser-run. Run from the repository root:  OUT=/tmp/out bash benches/gpu/sdpa.sh
set -uo pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}/sdpa
mkdir -p "$OUT"
BIN=${FUSER_RUN:-}
if [ -z "$BIN" ]; then
  for b in .gpu/fuser-run target/release/fuser-run; do [ -x "$b" ] && BIN=$b && break; done
fi
[ -x "${BIN:-}" ] || { echo "no fuser-run binary (set FUSER_RUN)"; exit 2; }
BACKEND=${FUSER_SDPA_BACKEND:-cuda}
pass=0; fail=0

# program NAME T B H HKV S SKV D DV CAUSAL: writes $OUT/NAME.mlir
program() {
  local name=$1 t=$2 b=$3 h=$4 hkv=$5 s=$6 skv=$7 d=$8 dv=$9 causal=${10}
  local q="tensor<${b}x${h}x${s}x${d}x${t}>" k="tensor<${b}x${hkv}x${skv}x${d}x${t}>"
  local v="tensor<${b}x${hkv}x${skv}x${dv}x${t}>" o="tensor<${b}x${h}x${s}x${dv}x${t}>" l="tensor<${b}x${h}x${s}xf32>"
  cat >"$OUT/$name.mlir" <<MLIR
fusion.mesh @tp = [0]
func.func @attention(%q: $q, %k: $k, %v: $v) -> ($o, $l) {
  %o, %l = fusion.sdpa %q, %k, %v $causal : ($q, $k, $v) -> ($o, $l)
  return %o, %l : $o, $l
}
MLIR
}

run_case() {  # NAME ARGS...: runs $OUT/NAME.mlir
  local name=$1; shift
  if timeout 300 "$BIN" "$OUT/$name.mlir" --ranks 1 --backend "$BACKEND" --check "$@" >"$OUT/$name.log" 2>&1 \
    && grep -q 'check: PASS' "$OUT/$name.log"; then
    echo "PASS $name $(grep 'check: PASS' "$OUT/$name.log" | sed 's/check: PASS //')"; pass=$((pass + 1))
  else
    echo "FAIL $name (log: $OUT/$name.log)"; tail -3 "$OUT/$name.log"; fail=$((fail + 1))
  fi
}

#        name                 type  B H  Hkv S    Skv  D   Dv  causal
cases=(
  "mma_bf16_mha             bf16  2 4  4   200  200  64  64  causal"
  "mma_bf16_gqa_cross       bf16  1 8  2   70   333  128 128 -"
  "mma_f16_gqa_causal       f16   2 8  4   129  257  32  16  causal"
  "mma_f16_dv8              f16   1 2  1   64   64   16  8   -"
  "fa_bf16_d128_blocks      bf16  1 8  8   300  300  128 128 causal"
  "fa_f16_d64_gqa           f16   2 8  2   257  300  64  64  causal"
  "simt_f32_gqa_causal      f32   2 4  2   100  130  64  64  causal"
  "simt_bf16_d40            bf16  1 4  4   50   77   40  24  causal"
  "simt_f16_d256            f16   1 2  1   33   40   256 256 -"
  "simt_f64                 f64   1 2  2   20   30   16  16  causal"
)
for c in "${cases[@]}"; do
  read -r name t b h hkv s skv d dv causal <<<"$c"
  [ "$causal" = - ] && causal=""
  program "$name" "$t" "$b" "$h" "$hkv" "$s" "$skv" "$d" "$dv" "$causal"
  run_case "$name"
done

# Large cases, timed without --check (the f64 reference would take minutes at this size; the
# cases above check the same kernels). Skipped with FUSER_SDPA_BACKEND=cpu.
big=(
  "big_mma_bf16_causal      bf16  4 16 16  2048 2048 128 128 causal 0.5"
  "big_mma_bf16             bf16  4 16 16  2048 2048 128 128 -      1"
  "big_mma_f16_d64          f16   4 32 8   4096 4096 64  64  causal 0.5"
  "big_simt_f32_causal      f32   4 16 16  2048 2048 128 128 causal 0.5"
  "big_gpt3_175b_attention  bf16  1 96 96  2048 2048 128 128 causal 0.5"
  "big_llama3_70b_attention bf16  1 64 8   4096 4096 128 128 causal 0.5"
)
[ "$BACKEND" = cpu ] && big=()
for c in "${big[@]}"; do
  read -r name t b h hkv s skv d dv causal frac <<<"$c"
  [ "$causal" = - ] && causal=""
  program "$name" "$t" "$b" "$h" "$hkv" "$s" "$skv" "$d" "$dv" "$causal"
  if ! timeout 300 "$BIN" "$OUT/$name.mlir" --ranks 1 --backend "$BACKEND" --warmup 2 --iters 10 >"$OUT/$name.log" 2>&1; then
    echo "FAIL $name (log: $OUT/$name.log)"; tail -3 "$OUT/$name.log"; fail=$((fail + 1)); continue
  fi
  ms=$(awk '$1 == "0" {print $2}' "$OUT/$name.log" | head -1)
  awk -v ms="$ms" -v b="$b" -v h="$h" -v s="$s" -v skv="$skv" -v d="$d" -v f="$frac" -v n="$name" \
    'BEGIN { printf "TIME %s %.3f ms %.1f TFLOP/s\n", n, ms, 4 * b * h * s * skv * d * f / (ms * 1e-3) / 1e12 }'
done

# The lit programs, heads split over ranks that share GPU 0.
for f in test/Run/ops/sdpa.mlir test/Run/ops/sdpa-gqa.mlir test/Run/ops/sdpa-bf16-tiles.mlir; do
  name=$(basename "$f" .mlir)
  ranks=$(grep -m1 '^// RUN: fuser-run' "$f" | sed -n 's/.*--ranks \([0-9]*\).*/\1/p')
  ranks=${ranks:-1}
  devices=()
  [ "$BACKEND" = cuda ] && devices=(--devices "$(seq -s, 0 $((ranks - 1)) | sed 's/[0-9]*/0/g')")
  if timeout 300 "$BIN" "$f" --ranks "$ranks" "${devices[@]}" --backend "$BACKEND" --check >"$OUT/$name.log" 2>&1 \
    && grep -q 'check: PASS' "$OUT/$name.log"; then
    echo "PASS $name"; pass=$((pass + 1))
  else
    echo "FAIL $name (log: $OUT/$name.log)"; tail -3 "$OUT/$name.log"; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
