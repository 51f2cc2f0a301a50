// RUN: fuser-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s

// The cf canonicalization patterns: constant conditions, pass-through blocks, merging into a
// single predecessor, identical successors (with arith.select), truth propagation, switch
// cases equal to the default, constant flags, switches on an already-switched flag, asserts.
// Expected output: mlir-opt-19's.

// CHECK-LABEL: func.func @merge_and_fold(%arg0: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:   return %0 : i32
// CHECK-NEXT: }
// CHECK-LABEL: func.func @identical_successors(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT:   return %0 : i32
// CHECK-NEXT: }
// CHECK-LABEL: func.func @truth_propagation(%arg0: i1) -> (i1, i1) {
// CHECK-NEXT:   %false = arith.constant false
// CHECK-NEXT:   %true = arith.constant true
// CHECK-NEXT:   %0 = "foo.unknown"() : () -> i1
// CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT:   "foo.use"(%true) : (i1) -> ()
// CHECK-NEXT:   cf.br ^bb3
// CHECK-NEXT: ^bb2:  // pred: ^bb0
// CHECK-NEXT:   "foo.use"(%false) : (i1) -> ()
// CHECK-NEXT:   cf.br ^bb3
// CHECK-NEXT: ^bb3:  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:   return %arg0, %0 : i1, i1
// CHECK-NEXT: }
// CHECK-LABEL: func.func @switch_cases(%arg0: i32, %arg1: f32, %arg2: f32) {
// CHECK-NEXT:   "foo.pred"()[^bb1, ^bb2, ^bb3, ^bb4] : () -> ()
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT:   cf.switch %arg0 : i32, [
// CHECK-NEXT:     default: ^bb2(%arg1 : f32),
// CHECK-NEXT:     4: ^bb3(%arg2 : f32)
// CHECK-NEXT:   ]
// CHECK-NEXT: ^bb2(%0: f32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:   "foo.t"(%0) : (f32) -> ()
// CHECK-NEXT: ^bb3(%1: f32):  // 3 preds: ^bb0, ^bb1, ^bb4
// CHECK-NEXT:   "foo.t"(%1) : (f32) -> ()
// CHECK-NEXT: ^bb4:  // pred: ^bb0
// CHECK-NEXT:   cf.br ^bb3(%arg2 : f32)
// CHECK-NEXT: }
// CHECK-LABEL: func.func @switch_same_flag(%arg0: i32, %arg1: f32) {
// CHECK-NEXT:   cf.switch %arg0 : i32, [
// CHECK-NEXT:     default: ^bb1,
// CHECK-NEXT:     1: ^bb3
// CHECK-NEXT:   ]
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT:   cf.switch %arg0 : i32, [
// CHECK-NEXT:     default: ^bb2(%arg1 : f32),
// CHECK-NEXT:     2: ^bb3
// CHECK-NEXT:   ]
// CHECK-NEXT: ^bb2(%0: f32):  // pred: ^bb1
// CHECK-NEXT:   "foo.t"(%0) : (f32) -> ()
// CHECK-NEXT: ^bb3:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:   "foo.t"() : () -> ()
// CHECK-NEXT: }
// CHECK-LABEL: func.func @asserts(%arg0: i1) {
// CHECK-NEXT:   cf.assert %arg0, "sometimes"
// CHECK-NEXT:   return
// CHECK-NEXT: }

func.func @merge_and_fold(%a: i32) -> i32 {
  %true = arith.constant true
  cf.cond_br %true, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2:
  cf.br ^bb3(%a : i32)
^bb3(%y: i32):
  %r = arith.addi %y, %y : i32
  return %r : i32
}

func.func @identical_successors(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%x: i32):
  return %x : i32
}

func.func @truth_propagation(%c: i1) -> (i1, i1) {
  %u = "foo.unknown"() : () -> i1
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  "foo.use"(%c) : (i1) -> ()
  cf.br ^bb3
^bb2:
  "foo.use"(%c) : (i1) -> ()
  cf.br ^bb3
^bb3:
  return %c, %u : i1, i1
}

func.func @switch_cases(%f: i32, %a: f32, %b: f32) {
  %c7 = arith.constant 7 : i32
  "foo.pred"()[^bb1, ^bb2, ^bb3, ^bb4] : () -> ()
^bb1:
  cf.switch %f : i32, [
    default: ^bb2(%a : f32),
    3: ^bb2(%a : f32),
    4: ^bb3(%b : f32)
  ]
^bb2(%x: f32):
  "foo.t"(%x) : (f32) -> ()
^bb3(%y: f32):
  "foo.t"(%y) : (f32) -> ()
^bb4:
  cf.switch %c7 : i32, [
    default: ^bb2(%a : f32),
    7: ^bb3(%b : f32)
  ]
}

func.func @switch_same_flag(%f: i32, %a: f32) {
  cf.switch %f : i32, [
    default: ^bb1,
    1: ^bb2
  ]
^bb1:
  cf.switch %f : i32, [
    default: ^bb3(%a : f32),
    1: ^bb4,
    2: ^bb4
  ]
^bb2:
  cf.switch %f : i32, [
    default: ^bb3(%a : f32),
    1: ^bb4
  ]
^bb3(%x: f32):
  "foo.t"(%x) : (f32) -> ()
^bb4:
  "foo.t"() : () -> ()
}

func.func @asserts(%c: i1) {
  %true = arith.constant true
  cf.assert %true, "always"
  cf.assert %c, "sometimes"
  return
}

// Unused arguments of non-entry blocks go, with the branch operands feeding them (also through
// a loop), as MLIR's region DCE does.
// CHECK-LABEL: func.func @dead_block_args(%arg0: i1, %arg1: i32, %arg2: f32) -> i32 {
// CHECK-NEXT:   cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
// CHECK-NEXT: ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT:   "foo.keep"() : () -> ()
// CHECK-NEXT:   cf.br ^bb3(%0 : i32)
// CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:   "foo.keep"() : () -> ()
// CHECK-NEXT:   cf.switch %arg1 : i32, [
// CHECK-NEXT:     default: ^bb3(%arg1 : i32),
// CHECK-NEXT:     1: ^bb2
// CHECK-NEXT:   ]
// CHECK-NEXT: ^bb3(%1: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:   return %1 : i32
// CHECK-NEXT: }
func.func @dead_block_args(%c: i1, %a: i32, %b: f32) -> i32 {
  cf.cond_br %c, ^bb1(%a, %b : i32, f32), ^bb2(%b : f32)
^bb1(%x: i32, %y: f32):
  "foo.keep"() : () -> ()
  cf.br ^bb3(%x, %y : i32, f32)
^bb2(%z: f32):
  "foo.keep"() : () -> ()
  cf.switch %a : i32, [
    default: ^bb3(%a, %z : i32, f32),
    1: ^bb2(%z : f32)
  ]
^bb3(%r: i32, %unused: f32):
  return %r : i32
}
