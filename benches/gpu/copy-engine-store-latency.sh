#!/usr/bin/env bash
# Per-call time of a copy-engine allreduce (128x512 f32, 2 processes sharing GPU 0) for two
# fuser-run binaries ($D/fuser-run-before and $D/fuser-run-after, D=${FUSER_BIN_DIR:-.dev/ipcfast}),
# then --check of the copy-engine programs with the "after" binary.
# Results: benches/results/h200-copy-engine.md (per-call cost of the multi-process path).
set -u
export NCCL_NVLS_ENABLE=0
D=${FUSER_BIN_DIR:-.dev/ipcfast}
P='builtin.module(tp-overlap-collective{backend=cuda_ipc})'
sed -e "s/\${DEVICES}/0, 1/g" -e "s/\${DT}/f32/g" -e "s/\${M}/128/g" -e "s/\${K}/256/g" -e "s/\${N}/512/g" \
  -e "s/\${H}/128/g" -e "s/\${S}/1/g" test/Run/matrix/row_parallel_linear.mlir.in >/tmp/ce-rpl.mlir
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for b in before after; do
  echo "== $b"
  timeout 40 "$D/fuser-run-$b" /tmp/ce-rpl.mlir --launch --devices 0,0 --backend cuda --warmup 5 --iters 50 \
    --timeout 30 --pass-pipeline "$P" 2>&1 | tail -4
done
echo "== after --check"
timeout 30 "$D/fuser-run-after" /tmp/ce-rpl.mlir --launch --devices 0,0 --backend cuda --check --timeout 20 \
  --pass-pipeline "$P" 2>&1 | grep -E 'check|error' | head -3
echo "== copy-engine-procs.sh 2 (after)"
FUSER_RUN=$D/fuser-run-after timeout 80 bash benches/gpu/copy-engine-procs.sh 2
echo "rc=$?"
