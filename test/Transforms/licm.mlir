// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(licm))' | FileCheck %s

// Pure ops whose operands are defined outside the loop move before it, in order, so chains
// move together (host.rank has no operands at all); loop-dependent math stays.

// CHECK-LABEL: func.func @index_math
// CHECK-SAME:    (%[[A:.*]]: index, %[[B:.*]]: index)
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[P:.*]] = arith.muli %[[A]], %[[B]] : index
// CHECK-NEXT:    %[[R:.*]] = host.rank : index
// CHECK-NEXT:    %[[Q:.*]] = arith.addi %[[P]], %[[R]] : index
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %[[C4]] step %{{.*}} {
// CHECK-NEXT:      %[[D:.*]] = arith.addi %[[I]], %[[Q]] : index
// CHECK-NEXT:      %[[E:.*]] = arith.muli %[[D]], %[[B]] : index
// CHECK-NEXT:      host.launch @k(%[[E]])
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @index_math(%a: index, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    %p = arith.muli %a, %b : index
    %r = host.rank : index
    %q = arith.addi %p, %r : index
    %d = arith.addi %i, %q : index
    %e = arith.muli %d, %b : index
    host.launch @k(%e) : index
  }
  return
}

// -----

// Nested loops: math invariant in both climbs out of both; math on the outer index climbs out
// of the inner loop only; constants defined in a body move out too.

// CHECK-LABEL: func.func @nested
// CHECK:         %[[W:.*]] = host.world_size : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[H:.*]] = arith.divui %[[W]], %[[C2]] : index
// CHECK-NEXT:    host.for %[[I:.*]] =
// CHECK-NEXT:      %[[X:.*]] = arith.muli %[[I]], %[[H]] : index
// CHECK-NEXT:      host.for %[[J:.*]] =
// CHECK-NEXT:        %[[Y:.*]] = arith.addi %[[X]], %[[J]] : index
// CHECK-NEXT:        host.launch @k(%[[Y]])
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @nested() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    host.for %j = %c0 to %c4 step %c1 {
      %w = host.world_size : index
      %c2 = arith.constant 2 : index
      %h = arith.divui %w, %c2 : index
      %x = arith.muli %i, %h : index
      %y = arith.addi %x, %j : index
      host.launch @k(%y) : index
    }
  }
  return
}

// -----

// Ops with effects stay (even with invariant operands), and so do divisions whose divisor may
// be zero (the loop may run no iteration); pure views of invariant buffers move.

// CHECK-LABEL: func.func @stays
// CHECK-SAME:    (%[[A:.*]]: !host.buf<4x8xf32>, %[[N:.*]]: index, %[[S:.*]]: !host.stream)
// CHECK:         %[[V:.*]] = host.select %[[A]][%[[N]]]
// CHECK-NEXT:    host.for
// CHECK-NEXT:      host.set_stream %[[S]]
// CHECK-NEXT:      %[[T:.*]] = host.alloc(%[[N]])
// CHECK-NEXT:      %[[CS:.*]] = host.current_stream
// CHECK-NEXT:      %[[Q:.*]] = arith.divui %[[N]], %[[N]] : index
// CHECK-NEXT:      %[[R:.*]] = arith.remsi %[[N]], %[[M1:.*]] : index
// CHECK-NEXT:      host.launch @k(%[[V]], %[[T]], %[[Q]], %[[R]], %[[CS]])
// CHECK-NEXT:    }
func.func @stays(%a: !host.buf<4x8xf32>, %n: index, %s: !host.stream) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m1 = arith.constant -1 : index
  host.for %i = %c0 to %c4 step %c1 {
    host.set_stream %s
    %t = host.alloc(%n) : !host.buf<?xf32>
    %cs = host.current_stream : !host.stream
    %v = host.select %a[%n] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
    %q = arith.divui %n, %n : index
    %r = arith.remsi %n, %m1 : index
    host.launch @k(%v, %t, %q, %r, %cs) : !host.view<8xf32, strides = [1]>, !host.buf<?xf32>, index, index, !host.stream
  }
  return
}

// -----

// Ops of other regions (a host.if inside the loop) are not loop bodies themselves; the if
// stays, and its invariant content is left where it is.

// CHECK-LABEL: func.func @if_in_loop
// CHECK:         host.for
// CHECK-NEXT:      host.if
// CHECK-NEXT:        %[[R:.*]] = host.rank
// CHECK-NEXT:        host.launch @k(%[[R]])
func.func @if_in_loop(%c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    host.if %c {
      %r = host.rank : index
      host.launch @k(%r) : index
    }
  }
  return
}
