#!/usr/bin/env bash
# The kernel-fusion benchmark of issue 24 (item 4) on ONE H200, in one device call: fuser-run
# against torch eager and torch.compile (bf16) on
#   kernels  add, GELU(x + bias), bias + dropout + residual, LayerNorm, RMSNorm (rows x hidden
#            in {2048, 8192, 16384} x {4096, 12288, 16384}: 5 shapes covering both, --full all
#            9), softmax over 2048/4096/8192 columns (128 MiB each) and the non-GEMM part of the
#            GPT-3 175B layer (seq 2048, hidden 12288, ffn 49152): GB/s, % of the measured
#            dst.copy_(src) bandwidth on the same bytes, ratios to torch eager / torch.compile;
#   linear   fusion.linear with bias on the GPT-3 and Llama-3-70B GEMM shapes, --gemm auto /
#            cublas / cublaslt, against F.linear (TFLOP/s);
#   layer    the GPT-3 175B and Llama-3-70B layer forward (examples/transformer/vs_torch.py, d = 1).
# The programs come from benches/gpu/fusion_programs.py; benches/gpu/fusion_bench.py runs and
# times them (its docstring says how each time is taken).
#
# The lead's device command (repository root; .gpu/fuser-run the stripped release binary, see
# benches/gpu/README.md):
#   run(command="bash benches/gpu/fusion.sh", kind="nvidia-h200", timeout_s=600)
# Not yet measured; estimated: kernels ~4 min, linear ~2 min, layer ~3-4 min (most of it
# generating inputs on the host and compiling torch). The per-part budgets (seconds,
# default kernels=210,linear=100,layer=250, each part also getting what the parts before it
# left; nothing starts after 570 s) keep one call under the 600 s limit, skipping, and listing in
# report.md, the cases that do not fit (the costliest shapes last). Each case logs its seconds.
# Everything, in two calls:
#   run(command="bash benches/gpu/fusion.sh --parts kernels --budget kernels=540", ...)
#   run(command="bash benches/gpu/fusion.sh --parts linear,layer --budget linear=200,layer=340", ...)
#
# Results: $OUT/fusion (default /tmp/fuser-gpu-out/fusion): report.md (the tables), results.json
# (every number), fusion_gbps.png (GB/s per kernel: fuser / eager / compile bars, the copy
# bandwidth as a line; skipped with a note where matplotlib is missing), programs/*.mlir,
# logs/ (each fuser-run's command and output). Both are rewritten after every case, so a
# timeout keeps what was measured; report.md is printed at the end.
#
# Options (passed to fusion_bench.py): --parts kernels,linear,layer (default all), --quick (2
# shapes per kernel, 1 softmax, 2 GEMMs, the GPT-3 layer only, 20 iterations: ~5 minutes),
# --full, --filter SUBSTRING, --no-compile, --no-graph, --pass-pipeline P (also given to the
# layer runs), --layer-fuser-args=--cuda-graph (more fuser-run arguments of the layer runs), --budget
# kernels=S,linear=S,layer=S (seconds per part; later cases are skipped and listed), --iters K,
# --linear-warmup W (GEMM warmup calls on both sides, default 100: steady clocks),
# --warmup W. Environment: FUSER_RUN (default .gpu/fuser-run, then target/release/fuser-run),
# OUT, FUSION_TIMEOUT (default 590 s for the whole script).
# Without a GPU: `bash benches/gpu/fusion.sh --dry-run` runs every program small on the cpu
# backend with --check (no torch), as test/Examples/fusion-bench.mlir does for each program.
set -u -o pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}/fusion
mkdir -p "$OUT"
BIN=${FUSER_RUN:-}
if [ -z "$BIN" ]; then
  for b in .gpu/fuser-run target/release/fuser-run target/debug/fuser-run; do [ -x "$b" ] && BIN=$b && break; done
fi
[ -x "${BIN:-}" ] || { echo "no fuser-run binary (set FUSER_RUN)"; exit 2; }
export NCCL_NVLS_ENABLE=0
dry=0
for arg in "$@"; do [ "$arg" = --dry-run ] && dry=1; done
if [ $dry = 0 ]; then
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/gpu.txt"
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' \
    || { echo "torch is not importable"; exit 2; }
fi
echo "fusion.sh: $BIN -> $OUT ($*)"
timeout "${FUSION_TIMEOUT:-590}" python3 -u benches/gpu/fusion_bench.py --fuser-run "$BIN" --out "$OUT" "$@"
rc=$?
[ $rc = 124 ] && echo "fusion.sh: stopped after ${FUSION_TIMEOUT:-590} s; $OUT/report.md holds what was measured"
echo "==== $OUT/report.md"
cat "$OUT/report.md" 2>/dev/null
exit $rc
