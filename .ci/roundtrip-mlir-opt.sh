#!/usr/bin/env bash
# For every test input that fuser-opt accepts, print it in generic form with fuser-opt, re-parse
# that with mlir-opt-19 and check mlir-opt-19 prints the very same bytes: our generic output is
# loadable by real MLIR and already in its canonical printed form.
# Usage: .ci/roundtrip-mlir-opt.sh path/to/fuser-opt
set -uo pipefail
cd "$(dirname "$0")/.."
FUSER_OPT=${1:?usage: $0 path/to/fuser-opt}
MLIR_OPT=${MLIR_OPT:-mlir-opt-19}
pass=0; fail=0; skipped=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
while IFS= read -r f; do
  # Inputs whose printed form MLIR itself cannot round-trip say so (with the reason).
  if grep -q '^// NO-ROUNDTRIP:' "$f"; then
    skipped=$((skipped + 1)); continue
  fi
  # Inputs meant to fail (invalid.mlir, error corpora) are not round-trip material.
  if ! "$FUSER_OPT" --allow-unregistered-dialect --split-input-file --mlir-print-op-generic "$f" \
        >"$tmp/ours" 2>/dev/null; then
    skipped=$((skipped + 1)); continue
  fi
  if ! "$MLIR_OPT" --allow-unregistered-dialect --split-input-file --mlir-print-op-generic \
        "$tmp/ours" >"$tmp/theirs" 2>"$tmp/err"; then
    echo "FAIL (mlir-opt-19 rejects our output): $f"; sed 's/^/    /' "$tmp/err" | head -20
    fail=$((fail + 1)); continue
  fi
  if ! cmp -s "$tmp/ours" "$tmp/theirs"; then
    echo "FAIL (output differs after mlir-opt-19 round trip): $f"
    diff "$tmp/ours" "$tmp/theirs" | head -20 | sed 's/^/    /'
    fail=$((fail + 1)); continue
  fi
  pass=$((pass + 1))
done < <(find test -name '*.mlir' -not -path 'test/corpus/errors/*' -not -path 'test/upstream/*' | sort)
echo "mlir-opt-19 round trip: $pass identical, $fail failed, $skipped skipped (not accepted by fuser-opt, or marked NO-ROUNDTRIP)"
[ "$fail" -eq 0 ]
