#!/usr/bin/env bash
# One-GPU checks of the cuda backend's traces: the runtime unit tests, then a traced
# stream-parallel matmul (8192³ bf16, S stream chunks over W worker streams) whose Chrome trace
# lands in $OUT, and the timing of S ∈ {1, 2, 4, 8} side by side.
set -uo pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}
mkdir -p "$OUT"
BIN=$PWD/.gpu/fuser-run
.gpu/fuser_runtime cuda --nocapture 2>&1 | grep -E "^test |skipped|test result"
inst() { sed -e "s/\${DEVICES}/0/g" -e "s/\${DT}/bf16/g" -e "s/\${M}/8192/g" -e "s/\${K}/8192/g" -e "s/\${N}/8192/g" \
  -e "s/\${S}/$1/g" test/Run/matrix/stream_parallel_matmul.mlir.in > /tmp/spm$1.mlir; }
for s in 1 2 4 8; do
  inst $s
  w=$((s < 4 ? s : 4))
  "$BIN" /tmp/spm$s.mlir --backend cuda --warmup 3 --iters 10 --pass-pipeline "builtin.module(tp-default{streams=$w})" \
    --csv "$OUT/spm$s.csv" >/dev/null && echo "S=$s W=$w $(tail -1 $OUT/spm$s.csv)"
done
"$BIN" /tmp/spm4.mlir --backend cuda --warmup 1 --iters 2 --pass-pipeline "builtin.module(tp-default{streams=2})" \
  --trace "$OUT/trace-spm4.json" | tail -3
