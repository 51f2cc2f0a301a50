// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Custom syntax of the cf ops; case values print unsigned (-1 : i32 is 4294967295), and a
// switch without cases closes its bracket on the default's line, as mlir-opt-19 prints them.

// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i64) -> i32 {
// CHECK-NEXT:   cf.assert %arg0, "a \22quoted\22 message"
// CHECK-NEXT:   cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2 {hint = 1 : i32}
// CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:   cf.br ^bb3(%0, %0 : i32, i32)
// CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:   cf.switch %arg3 : i32, [
// CHECK-NEXT:     default: ^bb1(%arg1 : i32),
// CHECK-NEXT:     4294967295: ^bb3(%arg1, %arg2 : i32, i32),
// CHECK-NEXT:     5: ^bb2
// CHECK-NEXT:   ]
// CHECK-NEXT: ^bb3(%1: i32, %2: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:   cf.switch %arg4 : i64, [
// CHECK-NEXT:     default: ^bb4]
// CHECK-NEXT: ^bb4:  // pred: ^bb3
// CHECK-NEXT:   return %1 : i32
// GENERIC: "cf.assert"(%arg0) <{msg = "a \22quoted\22 message"}> : (i1) -> ()
// GENERIC-NEXT: "cf.cond_br"(%arg0, %arg1)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> {hint = 1 : i32} : (i1, i32) -> ()
// GENERIC: "cf.br"(%0, %0)[^bb3] : (i32, i32) -> ()
// GENERIC: "cf.switch"(%arg3, %arg1, %arg1, %arg2)[^bb1, ^bb3, ^bb2] <{case_operand_segments = array<i32: 2, 0>, case_values = dense<[-1, 5]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 1, 2>}> : (i32, i32, i32, i32) -> ()
// GENERIC: "cf.switch"(%arg4)[^bb4] <{case_operand_segments = array<i32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i64) -> ()

func.func @branches(%c: i1, %a: i32, %b: i32, %f: i32, %g: i64) -> i32 {
  cf.assert %c, "a \"quoted\" message"
  cf.cond_br %c, ^bb1(%a : i32), ^bb2 {hint = 1 : i32}
^bb1(%x: i32):
  cf.br ^bb3(%x, %x : i32, i32)
^bb2:
  cf.switch %f : i32, [
    default: ^bb1(%a : i32),
    -1: ^bb3(%a, %b : i32, i32),
    5: ^bb2
  ]
^bb3(%y: i32, %z: i32):
  cf.switch %g : i64, [
    default: ^bb4
  ]
^bb4:
  return %y : i32
}
