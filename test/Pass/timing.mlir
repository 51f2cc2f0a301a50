// --mlir-timing prints an execution time report (to stderr) with one row per pass, nested
// pipelines indented; a user-time column only when threading is on.
// (mlir-opt-19 also lists analyses such as `(A) DominanceInfo`, which fuser-opt does not.)

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize),cse)' --mlir-timing -o %t 2>&1 | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize),cse)' --mlir-timing --mlir-disable-threading -o %t 2>&1 | FileCheck %s --check-prefix=SEQ

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Execution time report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT:   Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds
// CHECK-EMPTY:
// CHECK-NEXT:   ----User Time----  ----Wall Time----  ----Name----
// CHECK-NEXT:   {{[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\) +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Parser
// CHECK-NEXT:   {{.*}}  'func.func' Pipeline
// CHECK-NEXT:   {{.*}}    CSE
// CHECK:        {{.*}}    Canonicalizer
// CHECK:        {{.*}}  CSE
// CHECK:        {{.*}}  Output
// CHECK-NEXT:   {{.*}}  Rest
// CHECK-NEXT:   {{.*}}(100.0%){{.*}}(100.0%)  Total

// SEQ:        Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds
// SEQ-EMPTY:
// SEQ-NEXT:     ----Wall Time----  ----Name----
// SEQ-NEXT:     {{[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Parser
// SEQ-NEXT:     {{.*}}  'func.func' Pipeline
// SEQ-NEXT:     {{.*}}    CSE
// SEQ:          {{.*}}    Canonicalizer
// SEQ:          {{.*}}  CSE
// SEQ:          {{.*}}  Output
// SEQ-NEXT:     {{.*}}  Rest
// SEQ-NEXT:     {{.*}}(100.0%)  Total

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
