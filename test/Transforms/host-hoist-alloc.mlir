// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-hoist-alloc))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-hoist-alloc{persistent=true}))' | FileCheck %s --check-prefix=PERSIST
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(host-hoist-alloc{persistent=yes}))' 2>&1 | FileCheck %s --check-prefix=BADBOOL

// BADBOOL: for the --persistent option: 'yes' is invalid value for boolean argument! Try 0 or 1

// An allocation whose sizes are defined outside the loop moves before it; its dealloc moves
// after it, so one buffer serves every iteration. A size computed in the body keeps the
// allocation in the body.

// CHECK-LABEL: func.func @invariant
// CHECK-SAME:    (%[[A:.*]]: !host.buf<4xf32>, %[[N:.*]]: index)
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    %[[D:.*]] = host.alloc(%[[N]]) : !host.buf<?xf32>
// CHECK-NEXT:    host.for %[[I:.*]] =
// CHECK-NEXT:      host.copy %[[A]], %[[T]]
// CHECK-NEXT:      %[[M:.*]] = arith.addi %[[I]], %[[N]]
// CHECK-NEXT:      %[[V:.*]] = host.alloc(%[[M]]) : !host.buf<?xf32>
// CHECK-NEXT:      host.dealloc %[[V]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.dealloc %[[T]]
// CHECK-NEXT:    host.dealloc %[[D]]
// CHECK-NEXT:    return

// PERSIST-LABEL: func.func @invariant
// PERSIST:         host.alloc() persistent : !host.buf<4xf32>
// PERSIST-NEXT:    host.alloc(%{{.*}}) persistent : !host.buf<?xf32>
// PERSIST:           host.alloc(%{{.*}}) persistent : !host.buf<?xf32>
func.func @invariant(%a: !host.buf<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    %t = host.alloc() : !host.buf<4xf32>
    %d = host.alloc(%n) : !host.buf<?xf32>
    host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
    %m = arith.addi %i, %n : index
    %v = host.alloc(%m) : !host.buf<?xf32>
    host.dealloc %v : !host.buf<?xf32>
    host.dealloc %t : !host.buf<4xf32>
    host.dealloc %d : !host.buf<?xf32>
  }
  return
}

// -----

// A loop whose iterations switch streams keeps its allocations: a later iteration on another
// stream would overwrite a buffer an earlier one may still be reading.

// CHECK-LABEL: func.func @streams
// CHECK:         host.for
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.set_stream
// CHECK-NEXT:      %[[T:.*]] = host.alloc()
// CHECK-NEXT:      host.copy
// CHECK-NEXT:      host.dealloc %[[T]]
// CHECK-NEXT:    }
func.func @streams(%a: !host.buf<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    %s = host.get_stream %i : !host.stream
    host.set_stream %s
    %t = host.alloc() : !host.buf<4xf32>
    host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
    host.dealloc %t : !host.buf<4xf32>
  }
  return
}

// -----

// Nested loops: an allocation invariant in both climbs two levels; one that depends on the
// outer index climbs out of the inner loop only.

// CHECK-LABEL: func.func @nested
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    host.for %[[I:.*]] =
// CHECK-NEXT:      %[[U:.*]] = host.alloc(%[[I]]) : !host.buf<?xf32>
// CHECK-NEXT:      host.for %[[J:.*]] =
// CHECK-NEXT:        host.copy %{{.*}}, %[[T]]
// CHECK-NEXT:        host.elementwise neg %[[U]] into %[[U]]
// CHECK-NEXT:      }
// CHECK-NEXT:      host.dealloc %[[U]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.dealloc %[[T]]
// CHECK-NEXT:    return
func.func @nested(%a: !host.buf<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    host.for %j = %c0 to %c4 step %c1 {
      %t = host.alloc() : !host.buf<4xf32>
      %u = host.alloc(%i) : !host.buf<?xf32>
      host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
      host.elementwise neg %u into %u : !host.buf<?xf32>, !host.buf<?xf32>
      host.dealloc %u : !host.buf<?xf32>
      host.dealloc %t : !host.buf<4xf32>
    }
  }
  return
}

// -----

// An inner loop without stream ops inside a stream loop: its allocation climbs into the outer
// body (one stream) but not out of the stream loop.

// CHECK-LABEL: func.func @inner_of_stream_loop
// CHECK:         host.for
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.set_stream
// CHECK-NEXT:      %[[T:.*]] = host.alloc()
// CHECK-NEXT:      host.for
// CHECK-NEXT:        host.copy
// CHECK-NEXT:      }
// CHECK-NEXT:      host.dealloc %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @inner_of_stream_loop(%a: !host.buf<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    %s = host.get_stream %i : !host.stream
    host.set_stream %s
    host.for %j = %c0 to %c4 step %c1 {
      %t = host.alloc() : !host.buf<4xf32>
      host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
      host.dealloc %t : !host.buf<4xf32>
    }
  }
  return
}

// -----

// persistent=true also marks allocations outside loops; already persistent ones stay as they
// are.

// CHECK-LABEL: func.func @outside
// CHECK-NEXT:    host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    host.alloc() persistent : !host.buf<8xf32>
// PERSIST-LABEL: func.func @outside
// PERSIST-NEXT:    host.alloc() persistent : !host.buf<4xf32>
// PERSIST-NEXT:    host.alloc() persistent : !host.buf<8xf32>
func.func @outside() {
  %t = host.alloc() : !host.buf<4xf32>
  %p = host.alloc() persistent : !host.buf<8xf32>
  return
}
