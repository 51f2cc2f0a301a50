// --mlir-pass-pipeline-crash-reproducer=<file> writes, when the pipeline fails, the input
// IR as it was before the pipeline ran, followed by the pipeline and its settings in a
// `mlir_reproducer` external resource.

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize{test-convergence max-iterations=1})' --mlir-pass-pipeline-crash-reproducer=%t.repro -o %t 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --input-file=%t.repro

// DIAG: error: Failures have been detected while processing an MLIR pass pipeline
// DIAG: note: Pipeline failed while executing [`Canonicalizer` on 'builtin.module' operation]: reproducer generated at `{{.*}}.repro`

// CHECK:      module {
// CHECK-NEXT:   func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %0 = arith.addi %arg0, %c0_i32 : i32
// CHECK-NEXT:     %1 = arith.addi %arg0, %c0_i32 : i32
// CHECK-NEXT:     %2 = arith.muli %0, %1 : i32
// CHECK-NEXT:     return %2 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {-#
// CHECK-NEXT:   external_resources: {
// CHECK-NEXT:     mlir_reproducer: {
// CHECK-NEXT:       pipeline: "builtin.module(func.func(cse), canonicalize{{[{] *}}max-iterations=1 max-num-rewrites=-1 region-simplify=normal test-convergence=true top-down=true})",
// CHECK-NEXT:       disable_threading: false,
// CHECK-NEXT:       verify_each: true
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}

func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %0 = arith.addi %a, %c : i32
  %1 = arith.addi %a, %c : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
