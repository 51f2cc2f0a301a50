#!/usr/bin/env bash
# Quick checks of the cuda backend on whatever GPUs the machine has, each step bounded and
# logged under $OUT: runtime unit tests, the fuser-run end-to-end test, the matrix, the
# one-GPU stream-chunk timings.
set -uo pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
GPUS=$(nvidia-smi -L | wc -l)
timeout 90 .gpu/fuser_runtime cuda --nocapture --test-threads 1 >"$OUT/runtime.log" 2>&1
echo "runtime tests: exit $?"; grep -E "^test |test result" "$OUT/runtime.log"
FUSER_RUN_BIN=$PWD/.gpu/fuser-run FUSER_REPO_ROOT=$PWD timeout 90 .gpu/fuser_run cuda --nocapture >"$OUT/fuser_run.log" 2>&1
echo "fuser_run test: exit $?"; grep -E "^test |skipped|test result" "$OUT/fuser_run.log"
FUSER_RUN_BIN=$PWD/.gpu/fuser-run FUSER_REPO_ROOT=$PWD FUSER_RUN_MATRIX_BACKEND=cuda FUSER_RUN_MATRIX_MAX_RANKS=$GPUS \
  timeout 200 .gpu/fuser_run_matrix --test-threads 8 >"$OUT/matrix.log" 2>&1
echo "matrix: exit $?"; grep -E "^test result|FAILED" "$OUT/matrix.log" | head
