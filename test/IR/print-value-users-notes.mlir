// RUN: not fuser-opt --allow-unregistered-dialect --mlir-print-value-users %s 2>&1 | FileCheck %s

// --mlir-print-value-users also applies to the op printed in a "see current operation" note:
// the trailers and the block argument lines, numbered from the closest op isolated from above.
// Every CHECK line is mlir-opt-19's output.

// CHECK: print-value-users-notes.mlir:17:1: error: 'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')
// CHECK-NEXT: "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
// CHECK-NEXT: ^
// CHECK-NEXT: print-value-users-notes.mlir:17:1: note: see current operation:
// CHECK-NEXT: "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
// CHECK-NEXT: ^bb0(%arg0: i64):
// CHECK-NEXT:   // %arg0 is used by %1
// CHECK-NEXT:   %1 = "test.cast"(%arg0) : (i64) -> i32 // user: %2
// CHECK-NEXT:   "func.return"(%1) : (i32) -> () // id: %2
// CHECK-NEXT: }) : () -> ()
"func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
^bb0(%x: i64):
  %0 = "test.cast"(%x) : (i64) -> i32
  "func.return"(%0) : (i32) -> ()
}) : () -> ()
