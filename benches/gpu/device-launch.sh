#!/usr/bin/env bash
# The cuda backend's own tests on a GPU machine, and multi-process (--launch) runs: the unit
# tests of crates/runtime (cuda::*), the fuser-run end-to-end test, the matrix as one process
# per rank, and a few timed runs in both modes. Binaries in .gpu/ (benches/gpu/README.md).
set -uo pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
BIN=$PWD/.gpu/fuser-run
echo "== runtime unit tests (cuda)"
.gpu/fuser_runtime cuda --nocapture 2>&1 | grep -E "^test |skipped|test result"
echo "== fuser-run end to end (cuda)"
FUSER_RUN_BIN=$BIN FUSER_REPO_ROOT=$PWD .gpu/fuser_run cuda --nocapture 2>&1 | grep -E "^test |skipped|test result|panicked" 
echo "== --launch: a cuda_ipc pipeline is refused with a clear message"
sed -e 's/${DEVICES}/0, 1/g' -e 's/${DT}/bf16/g' -e 's/${M}/64/g' -e 's/${K}/32/g' -e 's/${N}/48/g' -e 's/${S}/2/g' \
  test/Run/matrix/column_parallel_linear.mlir.in > /tmp/col.mlir
"$BIN" /tmp/col.mlir --backend cuda --ranks "$(nvidia-smi -L | wc -l)" --launch --check \
  --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=2 chunks=2 backend=cuda_ipc})' 2>&1 | tail -3
echo "== matrix, one process per rank"
FUSER_RUN_BIN=$BIN FUSER_REPO_ROOT=$PWD FUSER_RUN_MATRIX_BACKEND=cuda FUSER_RUN_MATRIX_MAX_RANKS=$(nvidia-smi -L | wc -l) \
  FUSER_RUN_MATRIX_LAUNCH=1 .gpu/fuser_run_matrix --test-threads "${MATRIX_THREADS:-8}" >"$OUT/matrix-launch.log" 2>&1
echo "matrix exit status: $?"
grep -E "^test result|FAILED|failed" "$OUT/matrix-launch.log" | head -20
