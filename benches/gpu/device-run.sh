#!/usr/bin/env bash
# Runs fuser's cuda backend on a GPU machine: the examples, the differential matrix of
# crates/opt-tool/tests/fuser_run_matrix.rs on the cuda backend, and the timing sweep of
# benches/gpu/sweep.sh. Expects the binaries built on the development machine in .gpu/
# (see benches/gpu/README.md); writes logs under $OUT when set.
set -uo pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
BIN=$PWD/.gpu/fuser-run
GPUS=$(nvidia-smi -L | wc -l)
nvidia-smi -L
echo "== examples on $GPUS GPU(s)"
for ex in row_parallel_linear column_parallel_linear stream_parallel_matmul; do
  for r in 1 "$GPUS"; do
    "$BIN" examples/$ex.mlir --ranks "$r" --backend cuda --check 2>&1 | tail -3
  done
done
if [ "${SKIP_MATRIX:-0}" != 1 ]; then
  echo "== differential matrix on the cuda backend (ranks <= $GPUS)"
  FUSER_RUN_BIN=$BIN FUSER_REPO_ROOT=$PWD FUSER_RUN_MATRIX_BACKEND=cuda FUSER_RUN_MATRIX_MAX_RANKS=$GPUS \
    .gpu/fuser_run_matrix --test-threads "${MATRIX_THREADS:-8}" >"$OUT/matrix.log" 2>&1
  echo "matrix exit status: $?"
  grep -E "^test result|FAILED|failed" "$OUT/matrix.log" | head -40
fi
