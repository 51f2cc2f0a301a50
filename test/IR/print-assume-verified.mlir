// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-assume-verified %s | FileCheck %s
// RUN: fuser-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-assume-verified --verify-each=0 --canonicalize %s | FileCheck %s --check-prefix=CANON
// RUN: fuser-opt --allow-unregistered-dialect --verify-each=0 --canonicalize %s | FileCheck %s --check-prefix=CANON
// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-assume-verified --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// --mlir-print-assume-verified: print the custom form without verifying first. mlir-opt-19
// otherwise verifies before printing and falls back to the generic form for IR that fails
// (seen with its test passes that create invalid IR under --verify-each=0); fuser-opt does the
// same, but none of its passes leaves invalid IR, and the parser verifies its input, so the
// output of fuser-opt is the same with or without the flag (the fallback itself is tested by
// the driver's unit tests). Every CHECK line is mlir-opt-19's output.

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %0 = arith.addi %arg0, %c0_i32 : i32
// CHECK-NEXT:     %1 = "test.op"(%0) ({
// CHECK-NEXT:     ^bb0(%arg1: i32):
// CHECK-NEXT:       "test.yield"(%arg1) : (i32) -> ()
// CHECK-NEXT:     }) : (i32) -> i32
// CHECK-NEXT:     cf.br ^bb1(%1 : i32)
// CHECK-NEXT:   ^bb1(%2: i32):  // pred: ^bb0
// CHECK-NEXT:     return %2 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// CANON: module {
// CANON-NEXT:   func.func @f(%arg0: i32) -> i32 {
// CANON-NEXT:     %0 = "test.op"(%arg0) ({
// CANON-NEXT:     ^bb0(%arg1: i32):
// CANON-NEXT:       "test.yield"(%arg1) : (i32) -> ()
// CANON-NEXT:     }) : (i32) -> i32
// CANON-NEXT:     return %0 : i32
// CANON-NEXT:   }
// CANON-NEXT: }

// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: i32):
// GENERIC-NEXT:     %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT:     %1 = "arith.addi"(%arg0, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:     %2 = "test.op"(%1) ({
// GENERIC-NEXT:     ^bb0(%arg1: i32):
// GENERIC-NEXT:       "test.yield"(%arg1) : (i32) -> ()
// GENERIC-NEXT:     }) : (i32) -> i32
// GENERIC-NEXT:     "cf.br"(%2)[^bb1] : (i32) -> ()
// GENERIC-NEXT:   ^bb1(%3: i32):  // pred: ^bb0
// GENERIC-NEXT:     "func.return"(%3) : (i32) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = "test.op"(%0) ({
  ^bb0(%b: i32):
    "test.yield"(%b) : (i32) -> ()
  }) : (i32) -> i32
  cf.br ^bb1(%1 : i32)
^bb1(%x: i32):
  return %x : i32
}
