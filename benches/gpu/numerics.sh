#!/usr/bin/env bash
# Numeric semantics on the cuda backend (issue 22, item 3): runs every test/Run/numerics/*.mlir
# program with the fuser-run line of its RUN comment plus `--backend cuda` (its --check compares
# with the per-element-type reference), and checks the CHECK lines (the printed output values and
# `check: PASS`) against the output. Prints `PASS name` / `FAIL name` per case and a total; logs
# under $OUT (default /tmp/fuser-gpu-out/numerics). Cases needing more ranks than GPUs are
# SKIPped. Binary: $FUSER_RUN, else .gpu/fuser-run, else target/release/fuser-run.
# Run from the repository root:  OUT=/tmp/out bash benches/gpu/numerics.sh
set -uo pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}/numerics
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
BIN=${FUSER_RUN:-}
if [ -z "$BIN" ]; then
  for b in .gpu/fuser-run target/release/fuser-run; do [ -x "$b" ] && BIN=$b && break; done
fi
[ -x "${BIN:-}" ] || { echo "no fuser-run binary (set FUSER_RUN)"; exit 2; }
# FUSER_NUMERICS_BACKEND=cpu runs the same cases on the cpu backend (to test this script).
BACKEND=${FUSER_NUMERICS_BACKEND:-cuda}
GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)
[ "$BACKEND" = cpu ] && GPUS=64
pass=0; fail=0; skip=0
for f in test/Run/numerics/*.mlir; do
  name=$(basename "$f" .mlir)
  # The fuser-run command of the RUN line, up to the pipe into FileCheck.
  cmd=$(grep -m1 '^// RUN: fuser-run' "$f" | sed -e 's|^// RUN: fuser-run ||' -e 's/ *|.*$//' -e "s|%s|$f|g")
  ranks=$(echo "$cmd" | sed -n 's/.*--ranks \([0-9]*\).*/\1/p')
  if [ -n "$ranks" ] && [ "$ranks" -gt "$GPUS" ]; then
    echo "SKIP $name (needs $ranks GPUs, $GPUS here)"; skip=$((skip + 1)); continue
  fi
  # shellcheck disable=SC2086
  timeout 120 "$BIN" $cmd --backend "$BACKEND" >"$OUT/$name.log" 2>&1
  rc=$?
  ok=1
  [ $rc -eq 0 ] || ok=0
  while IFS= read -r want; do
    grep -qF -- "$want" "$OUT/$name.log" || { ok=0; echo "  $name: missing '$want'" >>"$OUT/$name.log.missing"; }
  done < <(grep '^// CHECK: ' "$f" | sed 's|^// CHECK: ||')
  if [ $ok -eq 1 ]; then
    echo "PASS $name"; pass=$((pass + 1))
  else
    echo "FAIL $name (exit $rc; $OUT/$name.log)"; fail=$((fail + 1))
    grep -E "output #|check:|error" "$OUT/$name.log" | head -8 | sed 's/^/    /'
    [ -f "$OUT/$name.log.missing" ] && sed 's/^/  /' "$OUT/$name.log.missing"
  fi
done
echo "numerics on $BACKEND: $pass passed, $fail failed, $skip skipped" | tee "$OUT/summary.txt"
[ $fail -eq 0 ]
