// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-insert-dealloc))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-insert-dealloc))' -o %t.once
// RUN: fuser-opt %t.once --split-input-file --pass-pipeline='builtin.module(func.func(host-insert-dealloc))' -o %t.twice
// RUN: diff %t.once %t.twice

// A buffer used at top level is freed right after its last use; an unused one right after its
// allocation.

// CHECK-LABEL: func.func @top_level
// CHECK-SAME:    (%[[A:.*]]: !host.buf<4xf32>)
// CHECK-NEXT:    %[[T:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    host.copy %[[A]], %[[T]]
// CHECK-NEXT:    host.copy %[[T]], %[[A]]
// CHECK-NEXT:    host.dealloc %[[T]] : !host.buf<4xf32>
// CHECK-NEXT:    %[[U:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    host.dealloc %[[U]] : !host.buf<4xf32>
// CHECK-NEXT:    host.elementwise neg %[[A]]
// CHECK-NEXT:    return
func.func @top_level(%a: !host.buf<4xf32>) {
  %t = host.alloc() : !host.buf<4xf32>
  host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
  host.copy %t, %a : !host.buf<4xf32>, !host.buf<4xf32>
  %u = host.alloc() : !host.buf<4xf32>
  host.elementwise neg %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

// A use inside a loop counts as the loop: a buffer allocated outside is freed after the loop;
// one allocated in the body is freed in the body.

// CHECK-LABEL: func.func @loop
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    host.for
// CHECK-NEXT:      host.copy %{{.*}}, %[[T]]
// CHECK-NEXT:      %[[IN:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:      host.copy %[[T]], %[[IN]]
// CHECK-NEXT:      host.dealloc %[[IN]]
// CHECK-NEXT:      host.elementwise
// CHECK-NEXT:    }
// CHECK-NEXT:    host.dealloc %[[T]]
// CHECK-NEXT:    host.elementwise
// CHECK-NEXT:    return
func.func @loop(%a: !host.buf<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = host.alloc() : !host.buf<4xf32>
  host.for %i = %c0 to %c4 step %c1 {
    host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
    %in = host.alloc() : !host.buf<4xf32>
    host.copy %t, %in : !host.buf<4xf32>, !host.buf<4xf32>
    host.elementwise neg %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  }
  host.elementwise neg %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

// Uses through views (and views of views) count.

// CHECK-LABEL: func.func @views
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    %[[V:.*]] = host.select %[[T]]
// CHECK-NEXT:    %[[W:.*]] = host.slice %[[V]]
// CHECK-NEXT:    host.elementwise neg %[[A:.*]] into %[[A]]
// CHECK-NEXT:    host.copy %[[W]], %{{.*}}
// CHECK-NEXT:    host.dealloc %[[T]] : !host.buf<4x8xf32>
// CHECK-NEXT:    return
func.func @views(%a: !host.buf<4xf32>, %i: index) {
  %t = host.alloc() : !host.buf<4x8xf32>
  %v = host.select %t[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
  %w = host.slice %v[0] [4] [2] : !host.view<8xf32, strides = [1]> -> !host.view<4xf32, strides = [2]>
  host.elementwise neg %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  host.copy %w, %a : !host.view<4xf32, strides = [2]>, !host.buf<4xf32>
  return
}

// -----

// A buffer a communication writes is freed after the wait on its request, not after the post
// (nvFuser frees it between the two, since its Wait has no operands).

// CHECK-LABEL: func.func @comm_wait
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    %[[R:.*]] = comm.allreduce sum %{{.*}} into %[[T]]
// CHECK-NEXT:    host.elementwise
// CHECK-NEXT:    comm.wait %[[R]]
// CHECK-NEXT:    host.dealloc %[[T]]
// CHECK-NEXT:    host.elementwise
// CHECK-NEXT:    return
func.func @comm_wait(%a: !host.buf<4xf32>) {
  %t = host.alloc() : !host.buf<4xf32>
  %r = comm.allreduce sum %a into %t team = [0, 1] : !host.buf<4xf32>, !host.buf<4xf32>
  host.elementwise neg %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  comm.wait %r
  host.elementwise neg %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

// The same through a view, and with the wait inside a conditional (which counts as the
// conditional).

// CHECK-LABEL: func.func @comm_view_wait_in_if
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<8xf32>
// CHECK-NEXT:    %[[V:.*]] = host.shard_by_stream %[[T]]
// CHECK-NEXT:    %[[R:.*]] = comm.send %[[V]]
// CHECK-NEXT:    host.if
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.dealloc %[[T]]
// CHECK-NEXT:    return
func.func @comm_view_wait_in_if(%p: index, %c: i1) {
  %t = host.alloc() : !host.buf<8xf32>
  %v = host.shard_by_stream %t[%p] axis = 0 chunks = 2 : !host.buf<8xf32> -> !host.view<4xf32, strides = [1]>
  %r = comm.send %v to %p : !host.view<4xf32, strides = [1]>
  host.if %c {
    comm.wait %r
  }
  return
}

// -----

// Buffers sent or received in a comm.group are freed after the wait on the group's request;
// deallocs after the same op keep the order of the allocations.

// CHECK-LABEL: func.func @group
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    %[[S:.*]] = host.alloc() : !host.buf<8xf32>
// CHECK-NEXT:    %[[V:.*]] = host.shard_by_stream %[[S]]
// CHECK-NEXT:    %[[R:.*]] = comm.group {
// CHECK-NEXT:      comm.send %[[T]]
// CHECK-NEXT:      comm.recv %[[V]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.elementwise
// CHECK-NEXT:    comm.wait %[[R]]
// CHECK-NEXT:    host.dealloc %[[T]] : !host.buf<4xf32>
// CHECK-NEXT:    host.dealloc %[[S]] : !host.buf<8xf32>
// CHECK-NEXT:    return
func.func @group(%a: !host.buf<4xf32>, %p: index) {
  %t = host.alloc() : !host.buf<4xf32>
  %s = host.alloc() : !host.buf<8xf32>
  %v = host.shard_by_stream %s[%p] axis = 0 chunks = 2 : !host.buf<8xf32> -> !host.view<4xf32, strides = [1]>
  %r = comm.group {
    %x = comm.send %t to %p : !host.buf<4xf32>
    %y = comm.recv %v from %p : !host.view<4xf32, strides = [1]>
  }
  host.elementwise neg %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  comm.wait %r
  return
}

// -----

// Returned buffers (directly or through a view), persistent buffers and buffers already freed
// get no dealloc.

// CHECK-LABEL: func.func @kept
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    %[[P:.*]] = host.alloc() persistent : !host.buf<4xf32>
// CHECK-NEXT:    %[[Q:.*]] = host.alloc() : !host.buf<8xf32>
// CHECK-NEXT:    %[[V:.*]] = host.shard_by_stream %[[Q]]
// CHECK-NEXT:    %[[F:.*]] = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT:    host.copy %[[P]], %[[T]]
// CHECK-NEXT:    host.copy %[[P]], %[[F]]
// CHECK-NEXT:    host.dealloc %[[F]]
// CHECK-NEXT:    return %[[T]], %[[V]]
// CHECK-NOT:   host.dealloc
func.func @kept(%i: index) -> (!host.buf<4xf32>, !host.view<4xf32, strides = [1]>) {
  %t = host.alloc() : !host.buf<4xf32>
  %p = host.alloc() persistent : !host.buf<4xf32>
  %q = host.alloc() : !host.buf<8xf32>
  %v = host.shard_by_stream %q[%i] axis = 0 chunks = 2 : !host.buf<8xf32> -> !host.view<4xf32, strides = [1]>
  %f = host.alloc() : !host.buf<4xf32>
  host.copy %p, %t : !host.buf<4xf32>, !host.buf<4xf32>
  host.copy %p, %f : !host.buf<4xf32>, !host.buf<4xf32>
  host.dealloc %f : !host.buf<4xf32>
  return %t, %v : !host.buf<4xf32>, !host.view<4xf32, strides = [1]>
}

// -----

// A buffer used in a stream-parallel loop is freed once the main stream is current again and
// has joined every worker (after the join loop), not right after the loop: a dealloc is
// ordered on the current stream only. A buffer allocated in the body is freed in the body, on
// the worker stream that used it.

// CHECK-LABEL: func.func @stream_loop
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    %[[MAIN:.*]] = host.current_stream
// CHECK-NEXT:    host.for
// CHECK:           host.set_stream
// CHECK-NEXT:      host.stream_wait %[[MAIN]]
// CHECK-NEXT:      %[[V:.*]] = host.select %[[T]]
// CHECK-NEXT:      %[[L:.*]] = host.alloc() : !host.buf<8xf32>
// CHECK-NEXT:      host.copy %[[V]], %[[L]]
// CHECK-NEXT:      host.dealloc %[[L]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[MAIN]]
// CHECK-NEXT:    host.for
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.stream_wait
// CHECK-NEXT:    }
// CHECK-NEXT:    host.dealloc %[[T]]
// CHECK-NEXT:    return
func.func @stream_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = host.alloc() : !host.buf<4x8xf32>
  %main = host.current_stream : !host.stream
  host.for %i = %c0 to %c4 step %c1 {
    %w = host.get_stream %i : !host.stream
    host.set_stream %w
    host.stream_wait %main
    %v = host.select %t[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
    %l = host.alloc() : !host.buf<8xf32>
    host.copy %v, %l : !host.view<8xf32, strides = [1]>, !host.buf<8xf32>
  }
  host.set_stream %main
  host.for %j = %c0 to %c4 step %c1 {
    %w = host.get_stream %j : !host.stream
    host.stream_wait %w
  }
  return
}
