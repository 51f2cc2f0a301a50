// RUN: fuser-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(cse)' --split-input-file | FileCheck %s

// Identical pure ops are merged; unregistered ops are never merged (they may have effects).
// CHECK-LABEL: func.func @simple
// CHECK-NEXT:    %[[X:.*]] = "fz.src"() : () -> i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    %[[U1:.*]] = "fz.add"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:    %[[U2:.*]] = "fz.add"(%[[X]], %[[X]]) : (i32, i32) -> i32
// CHECK-NEXT:    "fz.sink"(%[[A]], %[[A]], %[[U1]], %[[U2]])
// CHECK-NEXT:    return
func.func @simple() {
  %x = "fz.src"() : () -> i32
  %a = arith.addi %x, %x : i32
  %b = arith.addi %x, %x : i32
  %u1 = "fz.add"(%x, %x) : (i32, i32) -> i32
  %u2 = "fz.add"(%x, %x) : (i32, i32) -> i32
  "fz.sink"(%a, %b, %u1, %u2) : (i32, i32, i32, i32) -> ()
  return
}

// -----

// Unused pure ops are erased; attributes and result types take part in equivalence.
// CHECK-LABEL: func.func @dead_and_attrs
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    "fz.sink"(%[[C1]], %[[C1]], %[[C2]])
// CHECK-NEXT:    return
func.func @dead_and_attrs(%arg0: i32) {
  %dead = arith.muli %arg0, %arg0 : i32
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %c1w = arith.constant 1 : i64
  "fz.sink"(%c1, %c1b, %c1w) : (i32, i32, i64) -> ()
  return
}

// -----

// A block only reuses values of the blocks that dominate it.
// CHECK-LABEL: func.func @dominance
// CHECK:         %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK:       ^bb1:
// CHECK-NEXT:    "fz.sink"(%[[A]])
// CHECK:       ^bb2:
// CHECK-NEXT:    %[[B:.*]] = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    "fz.sink"(%[[B]])
// CHECK:       ^bb3:
// CHECK-NEXT:    %[[C:.*]] = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    "fz.sink"(%[[A]], %[[C]])
func.func @dominance(%arg0: i32, %cond: i1) {
  %a = arith.addi %arg0, %arg0 : i32
  "fz.sink"(%a) : (i32) -> ()
  "fz.cond_br"(%cond) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  %a1 = arith.addi %arg0, %arg0 : i32
  "fz.sink"(%a1) : (i32) -> ()
  "fz.br"() [^bb3] : () -> ()
^bb2:
  %b = arith.muli %arg0, %arg0 : i32
  "fz.sink"(%b) : (i32) -> ()
  "fz.br"() [^bb3] : () -> ()
^bb3:
  %a3 = arith.addi %arg0, %arg0 : i32
  %c = arith.muli %arg0, %arg0 : i32
  "fz.sink"(%a3, %c) : (i32, i32) -> ()
  return
}

// -----

// Ops in a nested region reuse outer values; ops in the region of an unregistered op (which
// might be isolated from above) do not.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    "fz.sink"(%[[A]])
// CHECK-NEXT:    "fz.region"() ({
// CHECK-NEXT:      %[[B:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:      "fz.sink"(%[[B]], %[[B]])
// CHECK-NEXT:    })
func.func @nested(%arg0: i32) {
  %a = arith.addi %arg0, %arg0 : i32
  "fz.sink"(%a) : (i32) -> ()
  "fz.region"() ({
    %b = arith.addi %arg0, %arg0 : i32
    %c = arith.addi %arg0, %arg0 : i32
    "fz.sink"(%b, %c) : (i32, i32) -> ()
  }) : () -> ()
  return
}
