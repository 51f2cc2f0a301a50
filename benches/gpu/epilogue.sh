#!/usr/bin/env bash
# GEMM epilogues on one GPU (issue 24, item 3): `fusion.linear` with bias, alone, followed by
# gelu_tanh and followed by a residual add, lowered with host-fuse-epilogue and run by fuser-run
# with every --gemm library, on the GPT-3 175B and Llama-70B GEMM shapes.
#
#   bash benches/gpu/epilogue.sh > epilogue.csv        # on the GPU machine, from the checkout
#
# CSV on stdout: lib,epilogue,m,n,k,dtype,mean_ms,tflops. `--gemm auto`'s choices (and their
# timings) go to $LOG (default epilogue-choices.log) through FUSER_GEMM_VERBOSE=1. Torch's
# F.linear on the same shapes: `python3 benches/gpu/gemm_torch.py --iters 20 MxNxK...`.
# Environment: FUSER_RUN (default .gpu/fuser-run, else target/release/fuser-run), SHAPES
# ("MxNxK ..."), LIBS, EPILOGUES, DT (bf16), WARMUP (3), ITERS (20), BACKEND (cuda; cpu with tiny
# SHAPES tests the script without a GPU).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${FUSER_RUN:-$([ -x .gpu/fuser-run ] && echo .gpu/fuser-run || echo target/release/fuser-run)}
# GPT-3 175B (h = 12288): QKV, attention out, MLP up, MLP down; Llama-70B (h = 8192): QKV (GQA),
# attention out, MLP up (one of gate/up), MLP down; 2048 and 8192 tokens.
GPT3="12288x36864x12288 12288x12288x12288 12288x49152x12288 12288x12288x49152"
LLAMA="8192x10240x8192 8192x8192x8192 8192x28672x8192 8192x8192x28672"
SHAPES=${SHAPES:-$(for t in 2048 8192; do for s in $GPT3 $LLAMA; do
  IFS=x read -r _ n k <<<"$s"; [ "$n" ] && printf '%sx%sx%s ' "$t" "$n" "$k"; done; done)}
LIBS=${LIBS:-auto cublas cublaslt}
EPILOGUES=${EPILOGUES:-none gelu residual}
DT=${DT:-bf16}
WARMUP=${WARMUP:-3}
ITERS=${ITERS:-20}
BACKEND=${BACKEND:-cuda}
LOG=${LOG:-epilogue-choices.log}
PIPE='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse-epilogue, host-insert-dealloc))'
gemm_flag() { [ "$BACKEND" = cuda ] && echo "--gemm $1"; }
: >"$LOG"
echo "lib,epilogue,m,n,k,dtype,mean_ms,tflops"
for shape in $SHAPES; do
  IFS=x read -r M N K <<<"$shape"
  for epi in $EPILOGUES; do
    prog=$(M=$M N=$N K=$K DT=$DT perl -pe 's/\$\{(\w+)\}/$ENV{$1}/g' benches/gpu/templates/linear_epilogue.mlir.in |
      grep -v -E "// @($(echo none gelu residual | tr ' ' '\n' | grep -vx "$epi" | paste -sd'|'))\$")
    for lib in $LIBS; do
      # shellcheck disable=SC2046
      out=$(echo "$prog" | FUSER_GEMM_VERBOSE=1 "$BIN" - --backend "$BACKEND" --ranks 1 $(gemm_flag "$lib") \
        --warmup "$WARMUP" --iters "$ITERS" --pass-pipeline "$PIPE" 2>>"$LOG") || {
        echo "epilogue.sh: $lib $epi $shape failed (see $LOG)" >&2; continue; }
      ms=$(awk '$1 == "0" { print $2; exit }' <<<"$out")
      tflops=$(awk -v m="$M" -v n="$N" -v k="$K" -v ms="$ms" 'BEGIN { printf "%.1f", 2 * m * n * k / (ms * 1e-3) / 1e12 }')
      echo "$lib,$epi,$M,$N,$K,$DT,$ms,$tflops"
    done
  done
done
