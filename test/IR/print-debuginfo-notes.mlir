// RUN: not fuser-opt --mlir-print-debuginfo %s 2>&1 | FileCheck %s
// RUN: not fuser-opt --mlir-print-debuginfo --mlir-pretty-debuginfo %s 2>&1 | FileCheck %s --check-prefix=PRETTY
// RUN: not fuser-opt %s 2>&1 | FileCheck %s --check-prefix=PLAIN

// The "see current operation" note follows the printing flags, as in mlir-opt-19: with
// --mlir-print-debuginfo the op carries its location (pretty with --mlir-pretty-debuginfo).
// Expected output from mlir-opt-19.

// CHECK: note: see current operation: %0 = "arith.addi"() <{overflowFlags = #arith.overflow<none>}> : () -> i32 loc("{{.*}}print-debuginfo-notes.mlir":[[@LINE+4]]:8)
// PRETTY: note: see current operation: %0 = "arith.addi"() <{overflowFlags = #arith.overflow<none>}> : () -> i32 {{.*}}print-debuginfo-notes.mlir:[[@LINE+3]]:8{{$}}
// PLAIN: note: see current operation: %0 = "arith.addi"() <{overflowFlags = #arith.overflow<none>}> : () -> i32{{$}}
func.func @f() {
  %0 = "arith.addi"() : () -> i32
  return
}
