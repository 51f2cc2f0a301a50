// RUN: fuser-opt --allow-unregistered-dialect %s --split-input-file --pass-pipeline='builtin.module(func.func(canonicalize{region-simplify=aggressive}))' | FileCheck %s
// RUN: fuser-opt --allow-unregistered-dialect %s --split-input-file --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s --check-prefix=NORMAL

// `region-simplify=aggressive` merges identical blocks and drops redundant block arguments
// (MLIR's mergeIdenticalBlocks / dropRedundantArguments); the default `normal` level does not.
// Expected output checked against mlir-opt-19.

// Blocks merging with operands that differ: a switch's three targets become one block; the
// block that already had an argument joins after the first two merged, and the duplicated new
// argument of `addi %b, %b` is pruned.

// CHECK-LABEL: func.func @switch_merge(
// CHECK-SAME:      %[[F:.*]]: i32, %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32)
// CHECK:         cf.switch %[[F]] : i32, [
// CHECK-NEXT:      default: ^bb1(%[[A]] : i32),
// CHECK-NEXT:      1: ^bb1(%[[B]] : i32),
// CHECK-NEXT:      2: ^bb1(%[[C]] : i32)
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb1(%[[X:.*]]: i32):  // 3 preds: ^bb0, ^bb0, ^bb0
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    return %[[S]] : i32
// CHECK-NEXT:  }
// NORMAL-LABEL: func.func @switch_merge(
// NORMAL:         ^bb3(%{{.*}}: i32):  // pred: ^bb0
func.func @switch_merge(%flag: i32, %a: i32, %b: i32, %c: i32) -> i32 {
  cf.switch %flag : i32, [
    default: ^bb1,
    1: ^bb2,
    2: ^bb3(%c : i32)
  ]
^bb1:
  %x = arith.addi %a, %a : i32
  return %x : i32
^bb2:
  %y = arith.addi %b, %b : i32
  return %y : i32
^bb3(%z0: i32):
  %z = arith.addi %z0, %z0 : i32
  return %z : i32
}

// -----

// Merging inside a region nested in a block-free op.

// CHECK-LABEL: func.func @nested(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[C]], %[[A]], %[[B]] : i32
// CHECK-NEXT:      "foo.use"(%[[S]]) : (i32) -> ()
// CHECK-NEXT:      "foo.yield"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// NORMAL-LABEL: func.func @nested(
// NORMAL:           cf.cond_br
func.func @nested(%c: i1, %a: i32, %b: i32) {
  "foo.region"() ({
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    "foo.use"(%a) : (i32) -> ()
    "foo.yield"() : () -> ()
  ^bb2:
    "foo.use"(%b) : (i32) -> ()
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Values defined in the blocks must match by position; the locations of ops do not matter.

// CHECK-LABEL: func.func @inner_order(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT:    %[[P:.*]] = arith.select %[[C]], %[[A]], %[[B]] : i32
// CHECK-NEXT:    %[[Q:.*]] = arith.select %[[C]], %[[B]], %[[A]] : i32
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[P]], %[[Q]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.subi %[[M]], %[[P]] : i32
// CHECK-NEXT:    "foo.sink"(%[[R]]) : (i32) -> ()
// CHECK-NEXT:    return %[[R]] : i32
func.func @inner_order(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.muli %a, %b : i32
  %x2 = arith.subi %x, %a : i32
  "foo.sink"(%x2) : (i32) -> () loc("x")
  cf.br ^bb3(%x2 : i32)
^bb2:
  %y = arith.muli %b, %a : i32
  %y2 = arith.subi %y, %b : i32
  "foo.sink"(%y2) : (i32) -> () loc("y")
  cf.br ^bb3(%y2 : i32)
^bb3(%r: i32):
  return %r : i32
}

// -----

// An unregistered terminator is no branch: the blocks merge only where no operand differs.

// CHECK-LABEL: func.func @unknown_pred(
// CHECK:         "foo.cond_br"()[^bb1, ^bb2, ^bb3] : () -> ()
// CHECK:       ^bb3:  // pred: ^bb0
func.func @unknown_pred(%a: i32, %b: i32) {
  "foo.cond_br"()[^bb1, ^bb2, ^bb3] : () -> ()
^bb1:
  "foo.use"(%a) : (i32) -> ()
  return
^bb2:
  "foo.use"(%b) : (i32) -> ()
  return
^bb3:
  "foo.use"(%a) : (i32) -> ()
  return
}

// -----

// A block argument passed the same value by every branch is dropped (at `aggressive` only).

// CHECK-LABEL: func.func @redundant_arg(
// CHECK-SAME:      %{{.*}}: i1, %[[A:.*]]: i32)
// CHECK:         cf.br ^bb3{{$}}
// CHECK:         cf.br ^bb3{{$}}
// CHECK-NEXT:  ^bb3:  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    return %[[A]] : i32
// NORMAL-LABEL: func.func @redundant_arg(
// NORMAL:         ^bb3(%{{.*}}: i32):  // 2 preds: ^bb1, ^bb2
func.func @redundant_arg(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  "foo.x"() : () -> ()
  cf.br ^bb3(%a : i32)
^bb2:
  "foo.y"() : () -> ()
  cf.br ^bb3(%a : i32)
^bb3(%r: i32):
  return %r : i32
}

// -----

// Ops with empty regions do not keep blocks from merging.

// CHECK-LABEL: func.func @empty_region(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT:    %[[S:.*]] = arith.select %[[C]], %[[A]], %[[B]] : i32
// CHECK-NEXT:    "foo.r"(%[[S]]) ({
// CHECK-NEXT:    }) : (i32) -> ()
// CHECK-NEXT:    return
func.func @empty_region(%c: i1, %a: i32, %b: i32) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  "foo.r"(%a) ({}) : (i32) -> ()
  return
^bb2:
  "foo.r"(%b) ({}) : (i32) -> ()
  return
}
