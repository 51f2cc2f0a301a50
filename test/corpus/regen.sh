#!/usr/bin/env bash
# Regenerate every golden file of the corpus with mlir-opt-19.
#
#   test/corpus/regen.sh            # uses $MLIR_OPT or mlir-opt-19
#
# Valid inputs (test/corpus/*.mlir) get X.<mode>.golden for each mode listed by
# corpus_modes in lib.sh. Error inputs (test/corpus/errors/*.mlir) get
# X.stderr.golden (mlir-opt's stderr) and X.exitcode.golden.
# The script also checks that
#   * every valid input is accepted (exit 0, empty stderr),
#   * the generic output is idempotent (re-parsing X.generic.golden prints it again),
#   * the custom output is stable (re-parsing X.custom.golden prints it again) and
#     converts to the same generic output,
#   * the debug-info outputs are idempotent as well (generic) and the custom one
#     converts to the generic one,
#   * every error input is rejected (non-zero exit, empty stdout).
set -euo pipefail
MLIR_OPT=${MLIR_OPT:-mlir-opt-19}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$here"
rm -f ./*.golden errors/*.golden
for f in *.mlir; do
  base=${f%.mlir}
  while read -r mode flags; do
    # shellcheck disable=SC2086
    if ! "$MLIR_OPT" $flags "$f" -o "$base.$mode.golden" 2>"$tmp/err"; then
      echo "FAIL: $f ($mode) was rejected:"; cat "$tmp/err"; fail=1; continue
    fi
    if [ -s "$tmp/err" ]; then echo "FAIL: $f ($mode) printed to stderr:"; cat "$tmp/err"; fail=1; fi
  done < <(corpus_modes "$base")
  # Generic idempotence: generic golden -> generic printing is a fixed point.
  cp "$base.generic.golden" "$tmp/$base.g.mlir"
  (cd "$tmp" && "$MLIR_OPT" --allow-unregistered-dialect --mlir-print-op-generic "$base.g.mlir" -o "$base.g2") \
    && cmp -s "$tmp/$base.g2" "$base.generic.golden" \
    || { echo "FAIL: generic output of $f is not idempotent"; diff "$base.generic.golden" "$tmp/$base.g2" | head -20; fail=1; }
  # Custom stability and custom->generic equivalence.
  cp "$base.custom.golden" "$tmp/$base.c.mlir"
  (cd "$tmp" && "$MLIR_OPT" --allow-unregistered-dialect "$base.c.mlir" -o "$base.c2") \
    && cmp -s "$tmp/$base.c2" "$base.custom.golden" \
    || { echo "FAIL: custom output of $f is not stable"; diff "$base.custom.golden" "$tmp/$base.c2" | head -20; fail=1; }
  (cd "$tmp" && "$MLIR_OPT" --allow-unregistered-dialect --mlir-print-op-generic "$base.c.mlir" -o "$base.cg") \
    && cmp -s "$tmp/$base.cg" "$base.generic.golden" \
    || { echo "FAIL: custom output of $f does not convert back to the generic golden"; diff "$base.generic.golden" "$tmp/$base.cg" | head -20; fail=1; }
  # Debug-info output keeps every location explicitly, so it is a fixed point too.
  if [ -f "$base.debuginfo.golden" ]; then
    cp "$base.debuginfo.golden" "$tmp/$base.d.mlir"
    (cd "$tmp" && "$MLIR_OPT" --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo "$base.d.mlir" -o "$base.d2") \
      && cmp -s "$tmp/$base.d2" "$base.debuginfo.golden" \
      || { echo "FAIL: debuginfo output of $f is not idempotent"; fail=1; }
    cp "$base.custom-debuginfo.golden" "$tmp/$base.cd.mlir"
    (cd "$tmp" && "$MLIR_OPT" --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo "$base.cd.mlir" -o "$base.cd2") \
      && cmp -s "$tmp/$base.cd2" "$base.debuginfo.golden" \
      || { echo "FAIL: custom debuginfo output of $f does not convert to the generic debuginfo golden"; fail=1; }
  fi
done

cd "$here/errors"
for f in *.mlir; do
  base=${f%.mlir}
  flags=$(error_flags "$base")
  set +e
  # shellcheck disable=SC2086
  "$MLIR_OPT" $flags "$f" >"$tmp/out" 2>"$base.stderr.golden"
  rc=$?
  set -e
  echo "$rc" >"$base.exitcode.golden"
  if [ "$rc" = 0 ]; then echo "FAIL: errors/$f was accepted"; fail=1; fi
  if [ -s "$tmp/out" ]; then echo "FAIL: errors/$f printed to stdout"; fail=1; fi
done

n_in=$(ls "$here"/*.mlir | wc -l); n_err=$(ls "$here"/errors/*.mlir | wc -l)
echo "regenerated goldens for $n_in inputs and $n_err error inputs"
exit $fail
