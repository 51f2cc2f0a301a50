#!/usr/bin/env bash
# GEMM contention on one GPU (docs/dev/copy-engine.md): slowdown of a 8192x8192x16384 bf16 GEMM
# by a concurrent transfer on another stream, per transfer kind (copy engine D2D, D2D with the
# driver's prefer-overlap hint, to/from pinned host, an SM copy kernel, an NCCL-like SM
# reduction kernel). CSV on stdout: ratio = T(both) / max(T_gemm, T_transfer), 1.0 = perfect
# overlap. Extra arguments go to fuser-contention (--m/--n/--k, --reps, --trials, --kinds).
# Binary: $FUSER_CONTENTION, else .gpu/fuser-contention (benches/gpu/README.md).
set -euo pipefail
BIN=${FUSER_CONTENTION:-.gpu/fuser-contention}
exec "$BIN" "$@"
