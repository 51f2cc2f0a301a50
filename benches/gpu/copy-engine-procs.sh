#!/usr/bin/env bash
# Copy-engine collectives (tp-overlap-collective{backend=cuda_ipc}) with several processes
# sharing one GPU (--launch --devices 0,0[,0,0]), checked against the reference (--check).
# Binary: $FUSER_RUN, else .gpu/fuser-run. Usage: copy-engine-procs.sh [TEAM SIZES...]
set -uo pipefail
BIN=${FUSER_RUN:-.gpu/fuser-run}
export NCCL_NVLS_ENABLE=0
status=0
for d in "${@:-2 4}"; do
  for d in $d; do
    devices=$(printf '0,%.0s' $(seq "$d")); devices=${devices%,}
    mesh=$(seq -s ', ' 0 $((d - 1)))
    for prog in row_parallel_linear row_parallel_linear_bias linear_reduce_scatter allgather_before_linear \
      allgather_after_linear; do
      for dt in f32 bf16; do
        sed -e "s/\${DEVICES}/$mesh/g" -e "s/\${DT}/$dt/g" -e "s/\${M}/512/g" -e "s/\${K}/256/g" \
          -e "s/\${N}/128/g" -e "s/\${H}/128/g" -e "s/\${S}/4/g" "test/Run/matrix/$prog.mlir.in" >/tmp/ce-$prog.mlir
        pipeline="builtin.module(tp-overlap-collective{streams=2 chunks=4 backend=cuda_ipc})"
        out=$("$BIN" /tmp/ce-$prog.mlir --backend cuda --launch --devices "$devices" --check --timeout 60 \
          --pass-pipeline "$pipeline" 2>&1)
        rc=$?
        [ $rc -eq 0 ] || status=1
        echo "$prog d=$d $dt rc=$rc: $(echo "$out" | grep -E 'check:|error' | head -2 | tr '\n' ' ')"
      done
    done
  done
done
exit $status
