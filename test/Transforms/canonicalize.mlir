// RUN: fuser-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(canonicalize)' --split-input-file | FileCheck %s

// Folding: the folded constant is hoisted to the top of the isolated region (here the module),
// duplicate constants are merged, dead constants disappear; unregistered ops stay.
// CHECK-LABEL: module {
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[A:.*]] = "fz.src"() : () -> i32
// CHECK-NEXT:    %[[B:.*]] = "fz.src"() : () -> i32
// CHECK-NEXT:    %[[C:.*]] = "fz.add"(%[[A]], %[[B]]) : (i32, i32) -> i32
// CHECK-NEXT:    %[[D:.*]] = "fz.add"(%[[A]], %[[B]]) : (i32, i32) -> i32
// CHECK-NEXT:    "fz.sink"(%[[C]], %[[D]], %[[C2]]) : (i32, i32, i32) -> ()
// CHECK-NEXT:  }
%a = "fz.src"() : () -> i32
%b = "fz.src"() : () -> i32
%c = "fz.add"(%a, %b) : (i32, i32) -> i32
%d = "fz.add"(%a, %b) : (i32, i32) -> i32
%u = arith.constant 1 : i32
%v = arith.constant 1 : i32
%w = arith.addi %u, %v : i32
"fz.sink"(%c, %d, %w) : (i32, i32, i32) -> ()

// -----

// Pre-existing constants move to the front of the function, each to the very front in turn.
// CHECK-LABEL: func.func @constant_order
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[X:.*]] = "fz.x"() : () -> i32
// CHECK-NEXT:    %[[Y:.*]] = "fz.y"() : () -> i32
// CHECK-NEXT:    "fz.sink"(%[[C1]], %[[C2]], %[[C3]], %[[X]], %[[Y]])
// CHECK-NEXT:    "fz.r"() ({
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:      %[[C1B:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      "fz.sink"(%[[C4]], %[[C1B]])
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return
func.func @constant_order() {
  %x = "fz.x"() : () -> i32
  %c1 = arith.constant 1 : i32
  %y = "fz.y"() : () -> i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  "fz.sink"(%c1, %c2, %c3, %x, %y) : (i32, i32, i32, i32, i32) -> ()
  "fz.r"() ({
    %c4 = arith.constant 4 : i32
    %c1b = arith.constant 1 : i32
    "fz.sink"(%c4, %c1b) : (i32, i32) -> ()
  }) : () -> ()
  return
}

// -----

// x + 0 folds to x; constants of a commutative op move to the right; dead pure ops go.
// CHECK-LABEL: func.func @identities
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %arg0, %[[C5]] : i32
// CHECK-NEXT:    return %arg0, %[[S]] : i32, i32
func.func @identities(%arg0: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %a = arith.addi %arg0, %c0 : i32
  %b = arith.addi %c5, %arg0 : i32
  %dead = arith.muli %arg0, %arg0 : i32
  return %a, %b : i32, i32
}

// -----

// Unreachable blocks are erased, also in regions of unregistered ops.
// CHECK-LABEL: func.func @unreachable
// CHECK-NEXT:    "fz.r"() ({
// CHECK-NEXT:      "fz.br"()[^bb1] : () -> ()
// CHECK-NEXT:    ^bb1:
// CHECK-NEXT:      "fz.t"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return
func.func @unreachable(%a: i32) {
  "fz.r"() ({
    "fz.br"() [^bb2] : () -> ()
  ^bb1:
    %2 = arith.addi %a, %a : i32
    "fz.use"(%2) : (i32) -> ()
    "fz.br"() [^bb2] : () -> ()
  ^bb2:
    "fz.t"() : () -> ()
  }) : () -> ()
  return
}
