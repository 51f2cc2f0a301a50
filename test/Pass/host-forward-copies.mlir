// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-forward-copies))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-forward-copies))' -o %t.once
// RUN: fuser-opt %t.once --split-input-file --pass-pipeline='builtin.module(func.func(host-forward-copies))' -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-forward-copies, host-insert-dealloc))' | FileCheck %s --check-prefix=DEALLOC
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-forward-copies{elementwise-strided=true}))' | FileCheck %s --check-prefix=STRIDED
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-forward-copies{gemm-strided=false}))' | FileCheck %s --check-prefix=NOGEMM

// Forwarding: the copy of a reshaped buffer into %t is read by copies of slices of %t; they
// read the slices of the reshape of %a instead, and %t and its copy go.

// CHECK-LABEL: func.func @forward_slices
// CHECK:         %[[A:.*]] = host.alloc() : !host.buf<4x6xf32>
// CHECK-NEXT:    host.elementwise neg %{{.*}} into %[[A]]
// CHECK-NEXT:    %[[R:.*]] = host.reshape %[[A]] : !host.buf<4x6xf32> -> !host.view<4x2x3xf32, strides = [6, 3, 1]>
// CHECK-NEXT:    %[[O0:.*]] = host.alloc() : !host.buf<4x3xf32>
// CHECK-NEXT:    %[[S0:.*]] = host.select %[[R]][%{{.*}}] axis = 1 : !host.view<4x2x3xf32, strides = [6, 3, 1]> -> !host.view<4x3xf32, strides = [6, 1]>
// CHECK-NEXT:    host.copy %[[S0]], %[[O0]]
// CHECK-NEXT:    %[[O1:.*]] = host.alloc() : !host.buf<4x3xf32>
// CHECK-NEXT:    %[[S1:.*]] = host.select %[[R]][%{{.*}}] axis = 1 : !host.view<4x2x3xf32, strides = [6, 3, 1]> -> !host.view<4x3xf32, strides = [6, 1]>
// CHECK-NEXT:    host.copy %[[S1]], %[[O1]]
// CHECK-NEXT:    return %[[O0]], %[[O1]]
func.func @forward_slices(%x: !host.buf<4x6xf32>) -> (!host.buf<4x3xf32>, !host.buf<4x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = host.alloc() : !host.buf<4x6xf32>
  host.elementwise neg %x into %a : !host.buf<4x6xf32>, !host.buf<4x6xf32>
  %t = host.alloc() : !host.buf<4x2x3xf32>
  %r = host.reshape %a : !host.buf<4x6xf32> -> !host.view<4x2x3xf32, strides = [6, 3, 1]>
  host.copy %r, %t : !host.view<4x2x3xf32, strides = [6, 3, 1]>, !host.buf<4x2x3xf32>
  %o0 = host.alloc() : !host.buf<4x3xf32>
  %s0 = host.select %t[%c0] axis = 1 : !host.buf<4x2x3xf32> -> !host.view<4x3xf32, strides = [6, 1]>
  host.copy %s0, %o0 : !host.view<4x3xf32, strides = [6, 1]>, !host.buf<4x3xf32>
  %o1 = host.alloc() : !host.buf<4x3xf32>
  %s1 = host.select %t[%c1] axis = 1 : !host.buf<4x2x3xf32> -> !host.view<4x3xf32, strides = [6, 1]>
  host.copy %s1, %o1 : !host.view<4x3xf32, strides = [6, 1]>, !host.buf<4x3xf32>
  return %o0, %o1 : !host.buf<4x3xf32>, !host.buf<4x3xf32>
}

// -----

// A chain of materializations (slice, reshape dropping a unit axis, permute, reshape adding a
// unit axis), as fusion-to-host lowers attention's head split: one copy remains. The reshapes of
// the strided slice become a select at 0 and an expand of an extent-1 axis.

// CHECK-LABEL: func.func @forward_chain
// CHECK-SAME:    (%[[A:.*]]: !host.buf<4x2x3x8xf32>)
// CHECK:         %[[SL:.*]] = host.slice %[[A]][0, 0, 1, 0] [4, 2, 1, 8] [1, 1, 1, 1] : !host.buf<4x2x3x8xf32> -> !host.view<4x2x1x8xf32, strides = [48, 24, 8, 1]>
// CHECK-NEXT:    %[[SQ:.*]] = host.select %[[SL]][%{{.*}}] axis = 2 : {{.*}} -> !host.view<4x2x8xf32, strides = [48, 24, 1]>
// CHECK-NEXT:    %[[P:.*]] = host.permute %[[SQ]] dims = [1, 0, 2] : {{.*}} -> !host.view<2x4x8xf32, strides = [24, 48, 1]>
// CHECK-NEXT:    %[[OUT:.*]] = host.alloc() : !host.buf<1x2x4x8xf32>
// CHECK-NEXT:    %[[E:.*]] = host.expand %[[P]] dims = [0] : {{.*}} -> !host.view<1x2x4x8xf32, strides = [0, 24, 48, 1]>
// CHECK-NEXT:    host.copy %[[E]], %[[OUT]]
// CHECK-NEXT:    return %[[OUT]]
func.func @forward_chain(%a: !host.buf<4x2x3x8xf32>) -> !host.buf<1x2x4x8xf32> {
  %t1 = host.alloc() : !host.buf<4x2x1x8xf32>
  %v1 = host.slice %a[0, 0, 1, 0] [4, 2, 1, 8] [1, 1, 1, 1] : !host.buf<4x2x3x8xf32> -> !host.view<4x2x1x8xf32, strides = [48, 24, 8, 1]>
  host.copy %v1, %t1 : !host.view<4x2x1x8xf32, strides = [48, 24, 8, 1]>, !host.buf<4x2x1x8xf32>
  %t2 = host.alloc() : !host.buf<4x2x8xf32>
  %v2 = host.reshape %t1 : !host.buf<4x2x1x8xf32> -> !host.view<4x2x8xf32, strides = [16, 8, 1]>
  host.copy %v2, %t2 : !host.view<4x2x8xf32, strides = [16, 8, 1]>, !host.buf<4x2x8xf32>
  %t3 = host.alloc() : !host.buf<2x4x8xf32>
  %v3 = host.permute %t2 dims = [1, 0, 2] : !host.buf<4x2x8xf32> -> !host.view<2x4x8xf32, strides = [8, 16, 1]>
  host.copy %v3, %t3 : !host.view<2x4x8xf32, strides = [8, 16, 1]>, !host.buf<2x4x8xf32>
  %v4 = host.reshape %t3 : !host.buf<2x4x8xf32> -> !host.view<1x2x4x8xf32, strides = [64, 32, 8, 1]>
  %out = host.alloc() : !host.buf<1x2x4x8xf32>
  host.copy %v4, %out : !host.view<1x2x4x8xf32, strides = [64, 32, 8, 1]>, !host.buf<1x2x4x8xf32>
  return %out : !host.buf<1x2x4x8xf32>
}

// -----

// A bias broadcast materialized in full to take a block of rows: the slice reads the broadcast.

// CHECK-LABEL: func.func @forward_broadcast
// CHECK-SAME:    (%[[B:.*]]: !host.buf<32xf32>, %[[X:.*]]: !host.buf<8x32xf32>, %[[I:.*]]: index, %[[Y:.*]]: !host.buf<8x32xf32>)
// CHECK-NEXT:    %[[E:.*]] = host.expand %[[B]] dims = [0] : !host.buf<32xf32> -> !host.view<16x32xf32, strides = [0, 1]>
// CHECK-NEXT:    %[[T:.*]] = host.alloc() : !host.buf<8x32xf32>
// CHECK-NEXT:    %[[S:.*]] = host.slice %[[E]][%[[I]], 0] [8, 32] [1, 1] : !host.view<16x32xf32, strides = [0, 1]> -> !host.view<8x32xf32, strides = [0, 1]>
// CHECK-NEXT:    host.copy %[[S]], %[[T]]
// CHECK-NEXT:    host.elementwise add %[[X]], %[[T]] into %[[Y]]
// CHECK-NEXT:    return
func.func @forward_broadcast(%b: !host.buf<32xf32>, %x: !host.buf<8x32xf32>, %i: index, %y: !host.buf<8x32xf32>) {
  %full = host.alloc() : !host.buf<16x32xf32>
  %e = host.expand %b dims = [0] : !host.buf<32xf32> -> !host.view<16x32xf32, strides = [0, 1]>
  host.copy %e, %full : !host.view<16x32xf32, strides = [0, 1]>, !host.buf<16x32xf32>
  %t = host.alloc() : !host.buf<8x32xf32>
  %s = host.slice %full[%i, 0] [8, 32] [1, 1] : !host.buf<16x32xf32> -> !host.view<8x32xf32, strides = [32, 1]>
  host.copy %s, %t : !host.view<8x32xf32, strides = [32, 1]>, !host.buf<8x32xf32>
  host.elementwise add %x, %t into %y : !host.buf<8x32xf32>, !host.buf<8x32xf32>, !host.buf<8x32xf32>
  return
}

// -----

// Elision: a contiguous reshape copied into a buffer only read by a GEMM: the GEMM reads the
// reshape. host-insert-dealloc then frees the source after the GEMM (it sees the view).

// CHECK-LABEL: func.func @elide_reshape
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4x2x8xf32>
// CHECK-NEXT:    host.elementwise neg %{{.*}} into %[[T]]
// CHECK-NEXT:    %[[R:.*]] = host.reshape %[[T]] : !host.buf<4x2x8xf32> -> !host.view<4x16xf32, strides = [16, 1]>
// CHECK-NEXT:    host.linear %[[R]], %{{.*}} into %{{.*}} : !host.view<4x16xf32, strides = [16, 1]>, !host.buf<8x16xf32>, !host.buf<4x8xf32>
// CHECK-NEXT:    return
// DEALLOC-LABEL: func.func @elide_reshape
// DEALLOC:         host.linear
// DEALLOC-NEXT:    host.dealloc
// DEALLOC-NEXT:    return
func.func @elide_reshape(%a: !host.buf<4x2x8xf32>, %w: !host.buf<8x16xf32>, %y: !host.buf<4x8xf32>) {
  %t = host.alloc() : !host.buf<4x2x8xf32>
  host.elementwise neg %a into %t : !host.buf<4x2x8xf32>, !host.buf<4x2x8xf32>
  %m = host.alloc() : !host.buf<4x16xf32>
  %r = host.reshape %t : !host.buf<4x2x8xf32> -> !host.view<4x16xf32, strides = [16, 1]>
  host.copy %r, %m : !host.view<4x16xf32, strides = [16, 1]>, !host.buf<4x16xf32>
  host.linear %m, %w into %y : !host.buf<4x16xf32>, !host.buf<8x16xf32>, !host.buf<4x8xf32>
  return
}

// -----

// Elision of a leading-axis slice read by a kernel and through a view of the elided buffer.

// CHECK-LABEL: func.func @elide_rows
// CHECK-SAME:    (%[[A:.*]]: !host.buf<8x4xf32>, %[[I:.*]]: index, %[[Y:.*]]: !host.buf<2x4xf32>, %[[Z:.*]]: !host.buf<4xf32>)
// CHECK-NEXT:    %[[T:.*]] = host.alloc() : !host.buf<8x4xf32>
// CHECK-NEXT:    host.elementwise neg %[[A]] into %[[T]]
// CHECK-NEXT:    %[[S:.*]] = host.slice %[[T]][%[[I]], 0] [2, 4] [1, 1]
// CHECK-NEXT:    host.kernel "softmax" (%[[S]]) into (%[[Y]])
// CHECK-NEXT:    %[[R:.*]] = host.select %[[S]][%[[I]]] axis = 0 : !host.view<2x4xf32, strides = [4, 1]> -> !host.view<4xf32, strides = [1]>
// CHECK-NEXT:    host.copy %[[R]], %[[Z]]
// CHECK-NEXT:    return
func.func @elide_rows(%a: !host.buf<8x4xf32>, %i: index, %y: !host.buf<2x4xf32>, %z: !host.buf<4xf32>) {
  %t = host.alloc() : !host.buf<8x4xf32>
  host.elementwise neg %a into %t : !host.buf<8x4xf32>, !host.buf<8x4xf32>
  %m = host.alloc() : !host.buf<2x4xf32>
  %s = host.slice %t[%i, 0] [2, 4] [1, 1] : !host.buf<8x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
  host.copy %s, %m : !host.view<2x4xf32, strides = [4, 1]>, !host.buf<2x4xf32>
  host.kernel "softmax" (%m) into (%y) params {dims = array<i64: 1>} : (!host.buf<2x4xf32>) into (!host.buf<2x4xf32>)
  %r = host.select %m[%i] axis = 0 : !host.buf<2x4xf32> -> !host.view<4xf32, strides = [1]>
  host.copy %r, %z : !host.view<4xf32, strides = [1]>, !host.buf<4xf32>
  return
}

// -----

// The source is written between the two copies: nothing moves.

// CHECK-LABEL: func.func @written_between
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    %[[P:.*]] = host.permute
// CHECK-NEXT:    host.copy %[[P]], %[[T]]
// CHECK-NEXT:    host.fill
// CHECK-NEXT:    %[[Q:.*]] = host.permute %[[T]]
// CHECK-NEXT:    host.copy %[[Q]], %{{.*}}
func.func @written_between(%o: !host.buf<8x4xf32>) {
  %a = host.alloc() : !host.buf<8x4xf32>
  host.fill %a {value = 1.0 : f32} : !host.buf<8x4xf32>
  %t = host.alloc() : !host.buf<4x8xf32>
  %p = host.permute %a dims = [1, 0] : !host.buf<8x4xf32> -> !host.view<4x8xf32, strides = [1, 4]>
  host.copy %p, %t : !host.view<4x8xf32, strides = [1, 4]>, !host.buf<4x8xf32>
  host.fill %a {value = 2.0 : f32} : !host.buf<8x4xf32>
  %q = host.permute %t dims = [1, 0] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>
  host.copy %q, %o : !host.view<8x4xf32, strides = [1, 8]>, !host.buf<8x4xf32>
  return
}

// -----

// Written through a view by a communication in between (any use but a known read counts as a
// write); and an argument written in between protects every argument (they may alias).

// CHECK-LABEL: func.func @comm_between
// CHECK:         host.copy %{{.*}}, %[[T:.*]] :
// CHECK:         comm.allreduce
// CHECK:         host.permute %[[T]]
// CHECK-LABEL: func.func @other_argument_written
// CHECK:         host.copy %{{.*}}, %[[T:.*]] :
// CHECK-NEXT:    host.fill
// CHECK-NEXT:    host.permute %[[T]]
func.func @comm_between(%o: !host.buf<8x4xf32>) {
  %a = host.alloc() : !host.buf<8x4xf32>
  host.fill %a {value = 1.0 : f32} : !host.buf<8x4xf32>
  %t = host.alloc() : !host.buf<4x8xf32>
  %p = host.permute %a dims = [1, 0] : !host.buf<8x4xf32> -> !host.view<4x8xf32, strides = [1, 4]>
  host.copy %p, %t : !host.view<4x8xf32, strides = [1, 4]>, !host.buf<4x8xf32>
  %r = comm.allreduce sum %a into %a team = [0, 1] : !host.buf<8x4xf32>, !host.buf<8x4xf32>
  comm.wait %r
  %q = host.permute %t dims = [1, 0] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>
  host.copy %q, %o : !host.view<8x4xf32, strides = [1, 8]>, !host.buf<8x4xf32>
  return
}
func.func @other_argument_written(%a: !host.buf<8x4xf32>, %b: !host.buf<8x4xf32>, %o: !host.buf<8x4xf32>) {
  %t = host.alloc() : !host.buf<4x8xf32>
  %p = host.permute %a dims = [1, 0] : !host.buf<8x4xf32> -> !host.view<4x8xf32, strides = [1, 4]>
  host.copy %p, %t : !host.view<4x8xf32, strides = [1, 4]>, !host.buf<4x8xf32>
  host.fill %b {value = 2.0 : f32} : !host.buf<8x4xf32>
  %q = host.permute %t dims = [1, 0] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>
  host.copy %q, %o : !host.view<8x4xf32, strides = [1, 8]>, !host.buf<8x4xf32>
  return
}

// -----

// A returned buffer keeps its copy (forwarding and elision alike); a buffer read by a kernel
// besides a copy keeps it too (its permuted source is not contiguous).

// CHECK-LABEL: func.func @returned
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<8x4xf32>
// CHECK-NEXT:    %[[R:.*]] = host.reshape
// CHECK-NEXT:    host.copy %[[R]], %[[T]]
// CHECK-NEXT:    return %[[T]]
// CHECK-LABEL: func.func @read_by_a_kernel
// CHECK:         host.copy %{{.*}}, %[[T:.*]] :
// CHECK-NEXT:    host.kernel "softmax" (%[[T]])
// CHECK-NEXT:    %[[S:.*]] = host.select %[[T]]
// CHECK-NEXT:    host.copy %[[S]]
func.func @returned(%a: !host.buf<32xf32>) -> !host.buf<8x4xf32> {
  %t = host.alloc() : !host.buf<8x4xf32>
  %r = host.reshape %a : !host.buf<32xf32> -> !host.view<8x4xf32, strides = [4, 1]>
  host.copy %r, %t : !host.view<8x4xf32, strides = [4, 1]>, !host.buf<8x4xf32>
  return %t : !host.buf<8x4xf32>
}
func.func @read_by_a_kernel(%a: !host.buf<8x4xf32>, %y: !host.buf<4x8xf32>, %z: !host.buf<8xf32>, %i: index) {
  %t = host.alloc() : !host.buf<4x8xf32>
  %p = host.permute %a dims = [1, 0] : !host.buf<8x4xf32> -> !host.view<4x8xf32, strides = [1, 4]>
  host.copy %p, %t : !host.view<4x8xf32, strides = [1, 4]>, !host.buf<4x8xf32>
  host.kernel "softmax" (%t) into (%y) params {dims = array<i64: 1>} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>)
  %s = host.select %t[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
  host.copy %s, %z : !host.view<8xf32, strides = [1]>, !host.buf<8xf32>
  return
}

// -----

// Merging two axes of a permuted layout is no view: the permute stays materialized. The
// reshape of that buffer is contiguous, but its target is handed to a communication (which
// needs a !host.buf), so it stays too.

// CHECK-LABEL: func.func @reshape_not_a_view
// CHECK:         %[[P:.*]] = host.permute
// CHECK-NEXT:    host.copy %[[P]], %[[T:.*]] :
// CHECK:         %[[R:.*]] = host.reshape %[[T]]
// CHECK-NEXT:    host.copy %[[R]], %[[M:.*]] :
// CHECK-NEXT:    comm.allreduce sum %[[M]]
func.func @reshape_not_a_view(%a: !host.buf<4x2x8xf32>, %o: !host.buf<2x32xf32>) {
  %t = host.alloc() : !host.buf<2x4x8xf32>
  %p = host.permute %a dims = [1, 0, 2] : !host.buf<4x2x8xf32> -> !host.view<2x4x8xf32, strides = [8, 16, 1]>
  host.copy %p, %t : !host.view<2x4x8xf32, strides = [8, 16, 1]>, !host.buf<2x4x8xf32>
  %m = host.alloc() : !host.buf<2x32xf32>
  %r = host.reshape %t : !host.buf<2x4x8xf32> -> !host.view<2x32xf32, strides = [32, 1]>
  host.copy %r, %m : !host.view<2x32xf32, strides = [32, 1]>, !host.buf<2x32xf32>
  %q = comm.allreduce sum %m into %o team = [0, 1] : !host.buf<2x32xf32>, !host.buf<2x32xf32>
  comm.wait %q
  return
}

// -----

// Two writers, or a reader before the copy: nothing moves.

// CHECK-LABEL: func.func @two_writers
// CHECK-COUNT-3: host.copy
// CHECK-LABEL: func.func @read_before
// CHECK-COUNT-3: host.copy
func.func @two_writers(%a: !host.buf<4xf32>, %b: !host.buf<4xf32>, %o: !host.buf<4xf32>) {
  %c = arith.constant 0 : index
  %t = host.alloc() : !host.buf<4xf32>
  host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
  host.copy %b, %t : !host.buf<4xf32>, !host.buf<4xf32>
  %e = host.expand %t dims = [0] : !host.buf<4xf32> -> !host.view<1x4xf32, strides = [0, 1]>
  %s = host.select %e[%c] axis = 0 : !host.view<1x4xf32, strides = [0, 1]> -> !host.view<4xf32, strides = [1]>
  host.copy %s, %o : !host.view<4xf32, strides = [1]>, !host.buf<4xf32>
  return
}
func.func @read_before(%a: !host.buf<4xf32>, %o: !host.buf<4xf32>, %p: !host.buf<4xf32>) {
  %t = host.alloc() : !host.buf<4xf32>
  host.copy %t, %p : !host.buf<4xf32>, !host.buf<4xf32>
  host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
  %e = host.permute %t dims = [0] : !host.buf<4xf32> -> !host.view<4xf32, strides = [1]>
  host.copy %e, %o : !host.view<4xf32, strides = [1]>, !host.buf<4xf32>
  return
}

// -----

// Inside a stream-loop body: a buffer allocated in the body is forwarded within the body (each
// iteration has its own); a source that outlives the loop and is written anywhere in it (here
// after the reading copy, so by the previous iteration before it) is not.

// CHECK-LABEL: func.func @loop_body
// CHECK:         host.for
// CHECK-NEXT:      %[[X:.*]] = host.shard_by_stream
// CHECK-NEXT:      %[[T:.*]] = host.alloc() : !host.buf<2x8xf32>
// CHECK-NEXT:      host.elementwise neg %[[X]] into %[[T]]
// CHECK-NEXT:      %[[P:.*]] = host.permute %[[T]]
// CHECK-NEXT:      %[[Y:.*]] = host.shard_by_stream
// CHECK-NEXT:      host.copy %[[P]], %[[Y]]
// CHECK-NEXT:    }
// CHECK-LABEL: func.func @loop_written_later
// CHECK:         host.for
// CHECK-COUNT-2: host.copy
// CHECK:         host.fill
func.func @loop_body(%x: !host.buf<4x8xf32>, %y: !host.buf<16x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  host.for %i = %c0 to %c2 step %c1 {
    %xs = host.shard_by_stream %x[%i] axis = 0 chunks = 2 : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
    %t = host.alloc() : !host.buf<2x8xf32>
    host.elementwise neg %xs into %t : !host.view<2x8xf32, strides = [8, 1]>, !host.buf<2x8xf32>
    %u = host.alloc() : !host.buf<8x2xf32>
    %p = host.permute %t dims = [1, 0] : !host.buf<2x8xf32> -> !host.view<8x2xf32, strides = [1, 8]>
    host.copy %p, %u : !host.view<8x2xf32, strides = [1, 8]>, !host.buf<8x2xf32>
    %ys = host.shard_by_stream %y[%i] axis = 0 chunks = 2 : !host.buf<16x2xf32> -> !host.view<8x2xf32, strides = [2, 1]>
    host.copy %u, %ys : !host.buf<8x2xf32>, !host.view<8x2xf32, strides = [2, 1]>
  }
  return
}
func.func @loop_written_later(%y: !host.buf<8x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = host.alloc() : !host.buf<2x8xf32>
  host.fill %a {value = 1.0 : f32} : !host.buf<2x8xf32>
  host.for %i = %c0 to %c2 step %c1 {
    %u = host.alloc() : !host.buf<8x2xf32>
    %p = host.permute %a dims = [1, 0] : !host.buf<2x8xf32> -> !host.view<8x2xf32, strides = [1, 8]>
    host.copy %p, %u : !host.view<8x2xf32, strides = [1, 8]>, !host.buf<8x2xf32>
    host.copy %u, %y : !host.buf<8x2xf32>, !host.buf<8x2xf32>
    host.fill %a {value = 2.0 : f32} : !host.buf<2x8xf32>
  }
  return
}

// -----

// Elision keeps the copy when the source is written while the buffer is still read, when the
// buffer has a view made before the copy, and for IPC memory.

// CHECK-LABEL: func.func @elide_written_after
// CHECK:         host.copy
// CHECK-LABEL: func.func @elide_view_before
// CHECK:         host.copy
// CHECK-LABEL: func.func @elide_ipc
// CHECK:         host.copy
func.func @elide_written_after(%a: !host.buf<8xf32>, %o: !host.buf<8xf32>) {
  %t = host.alloc() : !host.buf<8xf32>
  host.copy %a, %t : !host.buf<8xf32>, !host.buf<8xf32>
  host.fill %a {value = 0.0 : f32} : !host.buf<8xf32>
  host.elementwise neg %t into %o : !host.buf<8xf32>, !host.buf<8xf32>
  return
}
func.func @elide_view_before(%a: !host.buf<8xf32>, %o: !host.buf<4xf32>) {
  %t = host.alloc() : !host.buf<8xf32>
  %s = host.slice %t[0] [4] [1] : !host.buf<8xf32> -> !host.view<4xf32, strides = [1]>
  %b = host.alloc() : !host.buf<8xf32>
  host.elementwise neg %a into %b : !host.buf<8xf32>, !host.buf<8xf32>
  host.copy %b, %t : !host.buf<8xf32>, !host.buf<8xf32>
  host.elementwise neg %s into %o : !host.view<4xf32, strides = [1]>, !host.buf<4xf32>
  return
}
func.func @elide_ipc(%a: !host.buf<8xf32, ipc>, %o: !host.buf<8xf32>) {
  %t = host.alloc() : !host.buf<8xf32>
  host.copy %a, %t : !host.buf<8xf32, ipc>, !host.buf<8xf32>
  host.elementwise neg %t into %o : !host.buf<8xf32>, !host.buf<8xf32>
  return
}

// -----

// A function that manages streams itself is left alone.

// CHECK-LABEL: func.func @streams
// CHECK-COUNT-2: host.copy
func.func @streams(%a: !host.buf<8xf32>, %o: !host.buf<8xf32>) {
  %s = host.current_stream : !host.stream
  %t = host.alloc() : !host.buf<8xf32>
  host.copy %a, %t : !host.buf<8xf32>, !host.buf<8xf32>
  host.set_stream %s
  host.copy %t, %o : !host.buf<8xf32>, !host.buf<8xf32>
  return
}

// -----

// elementwise-strided=true: a strided view (here a broadcast) copied into a buffer read only as
// an input of host.elementwise is read directly; by default, or when another op (a GEMM) reads
// the buffer, the copy stays.

// CHECK-LABEL: func.func @strided_elementwise
// CHECK:         host.copy
// CHECK-LABEL: func.func @strided_gemm
// CHECK:         host.copy
// STRIDED-LABEL: func.func @strided_elementwise
// STRIDED-SAME:    (%[[B:.*]]: !host.buf<32xf32>, %[[X:.*]]: !host.buf<8x32xf32>)
// STRIDED-NEXT:    %[[E:.*]] = host.expand %[[B]] dims = [0] : !host.buf<32xf32> -> !host.view<8x32xf32, strides = [0, 1]>
// STRIDED-NEXT:    %[[Y:.*]] = host.alloc() : !host.buf<8x32xf32>
// STRIDED-NEXT:    host.elementwise add %[[X]], %[[E]] into %[[Y]] : !host.buf<8x32xf32>, !host.view<8x32xf32, strides = [0, 1]>, !host.buf<8x32xf32>
// STRIDED-NEXT:    return %[[Y]]
// STRIDED-LABEL: func.func @strided_gemm
// STRIDED:         host.copy
func.func @strided_elementwise(%b: !host.buf<32xf32>, %x: !host.buf<8x32xf32>) -> !host.buf<8x32xf32> {
  %e = host.expand %b dims = [0] : !host.buf<32xf32> -> !host.view<8x32xf32, strides = [0, 1]>
  %t = host.alloc() : !host.buf<8x32xf32>
  host.copy %e, %t : !host.view<8x32xf32, strides = [0, 1]>, !host.buf<8x32xf32>
  %y = host.alloc() : !host.buf<8x32xf32>
  host.elementwise add %x, %t into %y : !host.buf<8x32xf32>, !host.buf<8x32xf32>, !host.buf<8x32xf32>
  return %y : !host.buf<8x32xf32>
}
func.func @strided_gemm(%b: !host.buf<32xf32>, %x: !host.buf<8x32xf32>, %w: !host.buf<4x32xf32>) -> (!host.buf<8x32xf32>, !host.buf<8x4xf32>) {
  %e = host.expand %b dims = [0] : !host.buf<32xf32> -> !host.view<8x32xf32, strides = [0, 1]>
  %t = host.alloc() : !host.buf<8x32xf32>
  host.copy %e, %t : !host.view<8x32xf32, strides = [0, 1]>, !host.buf<8x32xf32>
  %y = host.alloc() : !host.buf<8x32xf32>
  host.elementwise add %x, %t into %y : !host.buf<8x32xf32>, !host.buf<8x32xf32>, !host.buf<8x32xf32>
  %z = host.alloc() : !host.buf<8x4xf32>
  host.linear %t, %w into %z : !host.buf<8x32xf32>, !host.buf<4x32xf32>, !host.buf<8x4xf32>
  return %y, %z : !host.buf<8x32xf32>, !host.buf<8x4xf32>
}

// -----

// gemm-strided (the default): a transposed matrix (dY^T of a weight gradient: a permuted
// row-major buffer, column-major) copied into a buffer read only as host.matmul inputs is read
// in place (both backends' GEMMs take a column-major operand); with gemm-strided=false, or a
// reader that is not a GEMM input (here also an elementwise op), or a layout no GEMM reads
// (a broadcast: stride 0), the copy stays.

// CHECK-LABEL: func.func @gemm_transposed
// CHECK-SAME:    (%[[DY:.*]]: !host.buf<32x64xbf16>, %[[X:.*]]: !host.buf<32x16xbf16>)
// CHECK-NEXT:    %[[T:.*]] = host.permute %[[DY]] dims = [1, 0] : !host.buf<32x64xbf16> -> !host.view<64x32xbf16, strides = [1, 64]>
// CHECK-NEXT:    %[[W:.*]] = host.alloc() : !host.buf<64x16xf32>
// CHECK-NEXT:    host.matmul %[[T]], %[[X]] into %[[W]] : !host.view<64x32xbf16, strides = [1, 64]>, !host.buf<32x16xbf16>, !host.buf<64x16xf32>
// CHECK-NEXT:    return %[[W]]
// CHECK-LABEL: func.func @gemm_and_elementwise
// CHECK:         host.copy
// CHECK-LABEL: func.func @gemm_broadcast
// CHECK:         host.copy
// NOGEMM-LABEL: func.func @gemm_transposed
// NOGEMM:         host.copy
func.func @gemm_transposed(%dy: !host.buf<32x64xbf16>, %x: !host.buf<32x16xbf16>) -> !host.buf<64x16xf32> {
  %t = host.alloc() : !host.buf<64x32xbf16>
  %p = host.permute %dy dims = [1, 0] : !host.buf<32x64xbf16> -> !host.view<64x32xbf16, strides = [1, 64]>
  host.copy %p, %t : !host.view<64x32xbf16, strides = [1, 64]>, !host.buf<64x32xbf16>
  %w = host.alloc() : !host.buf<64x16xf32>
  host.matmul %t, %x into %w : !host.buf<64x32xbf16>, !host.buf<32x16xbf16>, !host.buf<64x16xf32>
  return %w : !host.buf<64x16xf32>
}
func.func @gemm_and_elementwise(%dy: !host.buf<32x64xf32>, %x: !host.buf<32x16xf32>) -> (!host.buf<64x16xf32>, !host.buf<64x32xf32>) {
  %t = host.alloc() : !host.buf<64x32xf32>
  %p = host.permute %dy dims = [1, 0] : !host.buf<32x64xf32> -> !host.view<64x32xf32, strides = [1, 64]>
  host.copy %p, %t : !host.view<64x32xf32, strides = [1, 64]>, !host.buf<64x32xf32>
  %w = host.alloc() : !host.buf<64x16xf32>
  host.matmul %t, %x into %w : !host.buf<64x32xf32>, !host.buf<32x16xf32>, !host.buf<64x16xf32>
  %n = host.alloc() : !host.buf<64x32xf32>
  host.elementwise neg %t into %n : !host.buf<64x32xf32>, !host.buf<64x32xf32>
  return %w, %n : !host.buf<64x16xf32>, !host.buf<64x32xf32>
}
func.func @gemm_broadcast(%b: !host.buf<32xf32>, %x: !host.buf<32x16xf32>) -> !host.buf<8x16xf32> {
  %e = host.expand %b dims = [0] : !host.buf<32xf32> -> !host.view<8x32xf32, strides = [0, 1]>
  %t = host.alloc() : !host.buf<8x32xf32>
  host.copy %e, %t : !host.view<8x32xf32, strides = [0, 1]>, !host.buf<8x32xf32>
  %w = host.alloc() : !host.buf<8x16xf32>
  host.matmul %t, %x into %w : !host.buf<8x32xf32>, !host.buf<32x16xf32>, !host.buf<8x16xf32>
  return %w : !host.buf<8x16xf32>
}

// -----

// A fused region's inputs are reads: the region reads the contiguous reshape directly.

// CHECK-LABEL: func.func @elide_into_fused
// CHECK:         %[[R:.*]] = host.reshape %{{.*}} : !host.buf<4x2x4xf32> -> !host.view<4x8xf32, strides = [8, 1]>
// CHECK-NEXT:    %[[Y:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    host.fused (%[[R]]) into (%[[Y]]) : (!host.view<4x8xf32, strides = [8, 1]>) into (!host.buf<4x8xf32>)
// CHECK-NOT:     host.copy
func.func @elide_into_fused(%x: !host.buf<4x2x4xf32>) -> !host.buf<4x8xf32> {
  %t = host.alloc() : !host.buf<4x2x4xf32>
  host.elementwise neg %x into %t : !host.buf<4x2x4xf32>, !host.buf<4x2x4xf32>
  %m = host.alloc() : !host.buf<4x8xf32>
  %r = host.reshape %t : !host.buf<4x2x4xf32> -> !host.view<4x8xf32, strides = [8, 1]>
  host.copy %r, %m : !host.view<4x8xf32, strides = [8, 1]>, !host.buf<4x8xf32>
  %y = host.alloc() : !host.buf<4x8xf32>
  host.fused (%m) into (%y) : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>):
    %0 = fusion.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
    host.yield %0 : tensor<4x8xf32>
  }
  return %y : !host.buf<4x8xf32>
}
