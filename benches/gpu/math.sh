#!/usr/bin/env bash
# The elementwise math ops (issue 23, fusion/math.rs) on the cuda backend, one GPU: every
# program of test/Run/math/ with its mesh cut to one device, in f32, bf16 and f16, with --check
# against the f64 reference (math-semantics.mlir, exact values with NaN/inf and i1 outputs, is
# run by numerics.sh). Prints `PASS name` / `FAIL name` per case and a total. Binary:
# $FUSER_RUN, else .gpu/fuser-run, else target/release/fuser-run. From the repository root:
#   bash benches/gpu/math.sh
set -uo pipefail
export NCCL_NVLS_ENABLE=0
BIN=${FUSER_RUN:-}
if [ -z "$BIN" ]; then
  for b in .gpu/fuser-run target/release/fuser-run; do [ -x "$b" ] && BIN=$b && break; done
fi
[ -x "${BIN:-}" ] || { echo "no fuser-run binary (set FUSER_RUN)"; exit 2; }
BACKEND=${FUSER_MATH_BACKEND:-cuda}
pass=0; fail=0
for f in test/Run/math/*.mlir; do
  for t in f32 bf16 f16; do
    name="$(basename "$f" .mlir)/$t"
    log=$(sed -e "s/f32/$t/g" -e 's/fusion.mesh @tp = \[[0-9, ]*\]/fusion.mesh @tp = [0]/' "$f" |
      timeout 120 "$BIN" - --ranks 1 --backend "$BACKEND" --check 2>&1)
    if echo "$log" | grep -q "check: PASS"; then
      echo "PASS $name"; pass=$((pass + 1))
    else
      echo "FAIL $name"; echo "$log" | tail -5; fail=$((fail + 1))
    fi
  done
done
echo "math: $pass passed, $fail failed"
[ $fail -eq 0 ]
