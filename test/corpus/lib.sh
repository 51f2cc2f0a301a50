# Shared definitions for the golden corpus (sourced by regen.sh and .ci/corpus-check.sh).
#
# Every valid input test/corpus/X.mlir is printed in several modes; each mode
# has a golden file X.<mode>.golden. Commands always run from inside the
# directory that holds the input, with the bare file name as argument, so that
# file names inside locations and diagnostics are relative ("X.mlir").

# Files (base names, without .mlir) that get the debug-info modes in addition
# to every loc_* file.
CORPUS_DEBUGINFO_EXTRA="func_basic op_successors program_host value_numbering arith_constant whitespace_input"

# corpus_modes BASENAME: print one line per mode: "<mode> <flags...>".
corpus_modes() {
  local base=$1
  echo "generic --allow-unregistered-dialect --mlir-print-op-generic"
  echo "custom --allow-unregistered-dialect"
  local dbg=no
  case $base in loc_*) dbg=yes ;; esac
  for x in $CORPUS_DEBUGINFO_EXTRA; do [ "$x" = "$base" ] && dbg=yes; done
  if [ $dbg = yes ]; then
    echo "debuginfo --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo"
    echo "debuginfo-local --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope"
    echo "custom-debuginfo --allow-unregistered-dialect --mlir-print-debuginfo"
  fi
}

# error_flags BASENAME: flags for an errors/ input. Files named noflag_* are
# run without --allow-unregistered-dialect.
error_flags() {
  case $1 in
    noflag_*) echo "" ;;
    *) echo "--allow-unregistered-dialect" ;;
  esac
}
