// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-unique-ssa-ids %s | FileCheck %s
// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-unique-ssa-ids --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-unique-ssa-ids --mlir-print-local-scope %s | FileCheck %s --check-prefix=LOCAL
// RUN: fuser-opt --allow-unregistered-dialect %s | FileCheck %s --check-prefix=DEFAULT

// --mlir-print-unique-ssa-ids: value, argument and name-conflict numbers never restart in
// nested regions, not even in ops isolated from above (functions, nested modules), so every
// value of the printout has its own name; the generic form always numbers this way. Regions
// are numbered last-first (@inner's function gets %arg0 and %0). Suggested names are still
// scoped per region (%c0_i32 repeats in @f and @g), but their conflict suffix keeps counting
// (_0 in @g, _1 in @f). Local scope changes nothing for a whole-module print. Every CHECK line
// is mlir-opt-19's output.

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg3: i32) -> i32 {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %3 = arith.addi %arg3, %c0_i32 : i32
// CHECK-NEXT:     %4 = "test.region"() ({
// CHECK-NEXT:     ^bb0(%arg4: i32):
// CHECK-NEXT:       %c0_i32_1 = arith.constant 0 : i32
// CHECK-NEXT:       %5 = arith.addi %3, %c0_i32_1 : i32
// CHECK-NEXT:       "test.yield"(%5) : (i32) -> ()
// CHECK-NEXT:     }) : () -> i32
// CHECK-NEXT:     return %4 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @g(%arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %1 = arith.addi %arg1, %c0_i32 : i32
// CHECK-NEXT:     "test.region"() ({
// CHECK-NEXT:       %c0_i32_0 = arith.constant 0 : i32
// CHECK-NEXT:       "test.use"(%c0_i32_0) : (i32) -> ()
// CHECK-NEXT:     }) : () -> ()
// CHECK-NEXT:     cf.br ^bb1(%1 : i32)
// CHECK-NEXT:   ^bb1(%2: i32):  // pred: ^bb0
// CHECK-NEXT:     return %2 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   module @inner {
// CHECK-NEXT:     func.func @h(%arg0: i32) -> i32 {
// CHECK-NEXT:       %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:       return %0 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
// GENERIC-NEXT:   ^bb0(%arg3: i32):
// GENERIC-NEXT:     %5 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT:     %6 = "arith.addi"(%arg3, %5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:     %7 = "test.region"() ({
// GENERIC-NEXT:     ^bb0(%arg4: i32):
// GENERIC-NEXT:       %8 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT:       %9 = "arith.addi"(%6, %8) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:       "test.yield"(%9) : (i32) -> ()
// GENERIC-NEXT:     }) : () -> i32
// GENERIC-NEXT:     "func.return"(%7) : (i32) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "g"}> ({
// GENERIC-NEXT:   ^bb0(%arg1: i32, %arg2: i32):
// GENERIC-NEXT:     %1 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT:     %2 = "arith.addi"(%arg1, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:     "test.region"() ({
// GENERIC-NEXT:       %4 = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GENERIC-NEXT:       "test.use"(%4) : (i32) -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:     "cf.br"(%2)[^bb1] : (i32) -> ()
// GENERIC-NEXT:   ^bb1(%3: i32):  // pred: ^bb0
// GENERIC-NEXT:     "func.return"(%3) : (i32) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "builtin.module"() <{sym_name = "inner"}> ({
// GENERIC-NEXT:     "func.func"() <{function_type = (i32) -> i32, sym_name = "h"}> ({
// GENERIC-NEXT:     ^bb0(%arg0: i32):
// GENERIC-NEXT:       %0 = "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:       "func.return"(%0) : (i32) -> ()
// GENERIC-NEXT:     }) : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

// LOCAL: module {
// LOCAL-NEXT:   func.func @f(%arg3: i32) -> i32 {
// LOCAL-NEXT:     %c0_i32 = arith.constant 0 : i32
// LOCAL-NEXT:     %3 = arith.addi %arg3, %c0_i32 : i32
// LOCAL-NEXT:     %4 = "test.region"() ({
// LOCAL-NEXT:     ^bb0(%arg4: i32):
// LOCAL-NEXT:       %c0_i32_1 = arith.constant 0 : i32
// LOCAL-NEXT:       %5 = arith.addi %3, %c0_i32_1 : i32
// LOCAL-NEXT:       "test.yield"(%5) : (i32) -> ()
// LOCAL-NEXT:     }) : () -> i32
// LOCAL-NEXT:     return %4 : i32
// LOCAL-NEXT:   }
// LOCAL-NEXT:   func.func @g(%arg1: i32, %arg2: i32) -> i32 {
// LOCAL-NEXT:     %c0_i32 = arith.constant 0 : i32
// LOCAL-NEXT:     %1 = arith.addi %arg1, %c0_i32 : i32
// LOCAL-NEXT:     "test.region"() ({
// LOCAL-NEXT:       %c0_i32_0 = arith.constant 0 : i32
// LOCAL-NEXT:       "test.use"(%c0_i32_0) : (i32) -> ()
// LOCAL-NEXT:     }) : () -> ()
// LOCAL-NEXT:     cf.br ^bb1(%1 : i32)
// LOCAL-NEXT:   ^bb1(%2: i32):  // pred: ^bb0
// LOCAL-NEXT:     return %2 : i32
// LOCAL-NEXT:   }
// LOCAL-NEXT:   module @inner {
// LOCAL-NEXT:     func.func @h(%arg0: i32) -> i32 {
// LOCAL-NEXT:       %0 = arith.addi %arg0, %arg0 : i32
// LOCAL-NEXT:       return %0 : i32
// LOCAL-NEXT:     }
// LOCAL-NEXT:   }
// LOCAL-NEXT: }

// DEFAULT: module {
// DEFAULT-NEXT:   func.func @f(%arg0: i32) -> i32 {
// DEFAULT-NEXT:     %c0_i32 = arith.constant 0 : i32
// DEFAULT-NEXT:     %0 = arith.addi %arg0, %c0_i32 : i32
// DEFAULT-NEXT:     %1 = "test.region"() ({
// DEFAULT-NEXT:     ^bb0(%arg1: i32):
// DEFAULT-NEXT:       %c0_i32_0 = arith.constant 0 : i32
// DEFAULT-NEXT:       %2 = arith.addi %0, %c0_i32_0 : i32
// DEFAULT-NEXT:       "test.yield"(%2) : (i32) -> ()
// DEFAULT-NEXT:     }) : () -> i32
// DEFAULT-NEXT:     return %1 : i32
// DEFAULT-NEXT:   }
// DEFAULT-NEXT:   func.func @g(%arg0: i32, %arg1: i32) -> i32 {
// DEFAULT-NEXT:     %c0_i32 = arith.constant 0 : i32
// DEFAULT-NEXT:     %0 = arith.addi %arg0, %c0_i32 : i32
// DEFAULT-NEXT:     "test.region"() ({
// DEFAULT-NEXT:       %c0_i32_0 = arith.constant 0 : i32
// DEFAULT-NEXT:       "test.use"(%c0_i32_0) : (i32) -> ()
// DEFAULT-NEXT:     }) : () -> ()
// DEFAULT-NEXT:     cf.br ^bb1(%0 : i32)
// DEFAULT-NEXT:   ^bb1(%1: i32):  // pred: ^bb0
// DEFAULT-NEXT:     return %1 : i32
// DEFAULT-NEXT:   }
// DEFAULT-NEXT:   module @inner {
// DEFAULT-NEXT:     func.func @h(%arg0: i32) -> i32 {
// DEFAULT-NEXT:       %0 = arith.addi %arg0, %arg0 : i32
// DEFAULT-NEXT:       return %0 : i32
// DEFAULT-NEXT:     }
// DEFAULT-NEXT:   }
// DEFAULT-NEXT: }

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = "test.region"() ({
  ^bb0(%b: i32):
    %c0_0 = arith.constant 0 : i32
    %2 = arith.addi %0, %c0_0 : i32
    "test.yield"(%2) : (i32) -> ()
  }) : () -> i32
  return %1 : i32
}
func.func @g(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  "test.region"() ({
    %c0_1 = arith.constant 0 : i32
    "test.use"(%c0_1) : (i32) -> ()
  }) : () -> ()
  cf.br ^bb1(%0 : i32)
^bb1(%x: i32):
  return %x : i32
}
module @inner {
  func.func @h(%a: i32) -> i32 {
    %0 = arith.addi %a, %a : i32
    return %0 : i32
  }
}
