#!/usr/bin/env bash
# Check a printer/parser against the golden corpus in test/corpus.
#
#   .ci/corpus-check.sh path/to/fuser-opt            # check fuser-opt
#   MLIR_OPT=mlir-opt-19 .ci/corpus-check.sh fuser-opt   # ... and check the goldens are current
#   MLIR_OPT=mlir-opt-19 .ci/corpus-check.sh         # only check the goldens are current
#
# Every tool is run exactly like regen.sh runs mlir-opt-19: from inside the
# directory that holds the input, with the same flags (see corpus_modes and
# error_flags in test/corpus/lib.sh), output on stdout.
#   * valid inputs X.mlir: stdout must equal X.<mode>.golden byte for byte, the
#     exit status must be 0 and stderr must be empty;
#   * errors/X.mlir: stderr must equal X.stderr.golden, the exit status must equal
#     X.exitcode.golden and stdout must be empty.
# Environment:
#   CORPUS_ONLY=glob        only inputs whose base name matches (e.g. 'attr_*')
#   CORPUS_NO_ERRORS=1      skip test/corpus/errors
#   CORPUS_DIFF_LINES=N     lines of diff shown per mismatch (default 40, 0 = all)
# Exit status: 0 when everything matches, 1 on any mismatch, 2 on usage errors.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/test/corpus
. "$corpus/lib.sh"

tools=()
if [ $# -ge 1 ] && [ -n "$1" ]; then
  fuser=$1
  case $fuser in /*) ;; */*) fuser=$PWD/$fuser ;; esac
  if ! command -v "$fuser" >/dev/null 2>&1; then
    echo "corpus-check: '$1' is not an executable" >&2
    exit 2
  fi
  tools+=("$fuser")
fi
if [ -n "${MLIR_OPT:-}" ]; then
  if ! command -v "$MLIR_OPT" >/dev/null 2>&1; then
    echo "corpus-check: MLIR_OPT='$MLIR_OPT' is not an executable" >&2
    exit 2
  fi
  tools+=("$MLIR_OPT")
fi
if [ ${#tools[@]} -eq 0 ]; then
  echo "usage: $0 path/to/fuser-opt   (and/or set MLIR_OPT=mlir-opt-19)" >&2
  exit 2
fi

only=${CORPUS_ONLY:-*}
difflines=${CORPUS_DIFF_LINES:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0
failed=0

# Replaces the dialect list of "note: Registered dialects: a, b, c ; ..." by "<dialects>".
normalize_dialect_list() {
  sed -E 's/(note: Registered dialects: )[^;]*;/\1<dialects> ;/'
}

show_diff() { # golden actual label
  echo "MISMATCH: $3"
  if [ "$difflines" = 0 ]; then
    diff -u --label "golden" --label "actual" "$1" "$2"
  else
    diff -u --label "golden" --label "actual" "$1" "$2" | head -n "$difflines"
  fi
}

for tool in "${tools[@]}"; do
  tname=$(basename "$tool")
  cd "$corpus" || exit 2
  for f in *.mlir; do
    base=${f%.mlir}
    # shellcheck disable=SC2053
    [[ $base == $only ]] || continue
    while read -r mode flags; do
      golden=$base.$mode.golden
      checked=$((checked + 1))
      if [ ! -f "$golden" ]; then
        echo "MISSING: $golden (run test/corpus/regen.sh)"; failed=$((failed + 1)); continue
      fi
      # shellcheck disable=SC2086
      "$tool" $flags "$f" >"$tmp/out" 2>"$tmp/err"
      rc=$?
      bad=0
      if [ $rc -ne 0 ]; then
        echo "FAIL: [$tname] $f ($mode): exit status $rc"; bad=1
      fi
      if [ -s "$tmp/err" ]; then
        echo "FAIL: [$tname] $f ($mode): unexpected stderr:"; head -n 20 "$tmp/err"; bad=1
      fi
      if ! cmp -s "$golden" "$tmp/out"; then
        show_diff "$golden" "$tmp/out" "[$tname] $f ($mode): $tname ${flags} $f"; bad=1
      fi
      failed=$((failed + bad))
    done < <(corpus_modes "$base")
  done

  [ -n "${CORPUS_NO_ERRORS:-}" ] && continue
  cd "$corpus/errors" || exit 2
  for f in *.mlir; do
    base=${f%.mlir}
    # shellcheck disable=SC2053
    [[ $base == $only ]] || continue
    flags=$(error_flags "$base")
    checked=$((checked + 1))
    if [ ! -f "$base.stderr.golden" ] || [ ! -f "$base.exitcode.golden" ]; then
      echo "MISSING: errors/$base.{stderr,exitcode}.golden (run test/corpus/regen.sh)"
      failed=$((failed + 1)); continue
    fi
    # shellcheck disable=SC2086
    "$tool" $flags "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    bad=0
    want_rc=$(cat "$base.exitcode.golden")
    if [ "$rc" != "$want_rc" ]; then
      echo "FAIL: [$tname] errors/$f: exit status $rc, expected $want_rc"; bad=1
    fi
    if [ -s "$tmp/out" ]; then
      echo "FAIL: [$tname] errors/$f: unexpected stdout:"; head -n 20 "$tmp/out"; bad=1
    fi
    # The "Registered dialects: ..." note lists the tool's own dialects: an allowed divergence.
    normalize_dialect_list <"$base.stderr.golden" >"$tmp/want"
    normalize_dialect_list <"$tmp/err" >"$tmp/got"
    if ! cmp -s "$tmp/want" "$tmp/got"; then
      show_diff "$tmp/want" "$tmp/got" "[$tname] errors/$f (stderr): $tname ${flags} $f"; bad=1
    fi
    failed=$((failed + bad))
  done
done

echo "corpus-check: $checked checks, $failed failed (tools: ${tools[*]})"
[ $failed -eq 0 ]
