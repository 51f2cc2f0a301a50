// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-fuse-epilogue))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-fuse-epilogue))' | FileCheck %s --check-prefix=NEG

// host-fuse-epilogue: a linear's gelu_tanh or residual add folds into its GEMM epilogue when
// the intermediate is a private allocation and nothing in between writes the GEMM's inputs.

// (a) linear + gelu_tanh: the linear writes %y with the epilogue, in the elementwise op's place;
// the intermediate's alloc and dealloc go, ops in between that do not touch the inputs stay.
// CHECK-LABEL: func.func @gelu
// CHECK-SAME:    (%[[X:.*]]: !host.buf<4x8xbf16>, %[[W:.*]]: !host.buf<16x8xbf16>, %[[B:.*]]: !host.buf<16xbf16>, %[[Y:.*]]: !host.buf<4x16xbf16>, %[[Z:.*]]: !host.buf<4x8xbf16>)
// CHECK-NEXT:    host.elementwise neg %[[X]] into %[[Z]]
// CHECK-NEXT:    host.linear %[[X]], %[[W]], %[[B]] into %[[Y]] epilogue = gelu_tanh {test.tag} : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>
// CHECK-NEXT:    return
func.func @gelu(%x: !host.buf<4x8xbf16>, %w: !host.buf<16x8xbf16>, %b: !host.buf<16xbf16>, %y: !host.buf<4x16xbf16>, %z: !host.buf<4x8xbf16>) {
  %t = host.alloc() : !host.buf<4x16xbf16>
  host.linear %x, %w, %b into %t {test.tag} : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>
  host.elementwise neg %x into %z : !host.buf<4x8xbf16>, !host.buf<4x8xbf16>
  host.elementwise gelu_tanh %t into %y : !host.buf<4x16xbf16>, !host.buf<4x16xbf16>
  host.dealloc %t : !host.buf<4x16xbf16>
  return
}

// -----

// (b) linear + add, the intermediate on either side: a residual. An output that is the
// residual itself (h = h + linear(...)) becomes accumulate.
// CHECK-LABEL: func.func @residual
// CHECK-SAME:    (%[[X:.*]]: !host.buf<4x8xf32>, %[[W:.*]]: !host.buf<16x8xf32>, %[[R:.*]]: !host.buf<4x16xf32>, %[[Y:.*]]: !host.buf<4x16xf32>)
// CHECK-NEXT:    host.linear %[[X]], %[[W]] into %[[Y]] residual %[[R]] : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
// CHECK-NEXT:    host.linear %[[X]], %[[W]] into %[[Y]] residual %[[R]] : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
// CHECK-NEXT:    host.linear %[[X]], %[[W]] into %[[R]] accumulate : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
// CHECK-NEXT:    return
func.func @residual(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %r: !host.buf<4x16xf32>, %y: !host.buf<4x16xf32>) {
  %t = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise add %t, %r into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  %u = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %u : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise add %r, %u into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  %v = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %v : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise add %v, %r into %r : !host.buf<4x16xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  host.dealloc %t : !host.buf<4x16xf32>
  host.dealloc %u : !host.buf<4x16xf32>
  host.dealloc %v : !host.buf<4x16xf32>
  return
}

// -----

// Inside a loop body, on views of the loop's chunk: fused there.
// CHECK-LABEL: func.func @loop
// CHECK:         host.for
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream
// CHECK-NEXT:      host.linear %[[XI]], %{{.*}}, %{{.*}} into %[[YI]] epilogue = gelu_tanh
// CHECK-NEXT:    }
func.func @loop(%x: !host.buf<8x8xbf16>, %w: !host.buf<16x8xbf16>, %b: !host.buf<16xbf16>, %y: !host.buf<8x16xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  host.for %i = %c0 to %c2 step %c1 {
    %xi = host.shard_by_stream %x[%i] axis = 0 chunks = 2 : !host.buf<8x8xbf16> -> !host.view<4x8xbf16, strides = [8, 1]>
    %t = host.alloc() : !host.buf<4x16xbf16>
    host.linear %xi, %w, %b into %t : !host.view<4x8xbf16, strides = [8, 1]>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>
    %yi = host.shard_by_stream %y[%i] axis = 0 chunks = 2 : !host.buf<8x16xbf16> -> !host.view<4x16xbf16, strides = [16, 1]>
    host.elementwise gelu_tanh %t into %yi : !host.buf<4x16xbf16>, !host.view<4x16xbf16, strides = [16, 1]>
    host.dealloc %t : !host.buf<4x16xbf16>
  }
  return
}

// -----

// Left alone: the intermediate has another use; it is a function argument; the linear
// accumulates; the consumer is a cast; the add's shapes differ (a `?` extent); an input is
// written in between (directly, or through a view in a nested loop); a stream switch in
// between; the output is an input of the GEMM; the elementwise op is in a nested block; the
// residual is written in between; a gelu output of another (compatible) shape.
// CHECK-LABEL: func.func @negative
// CHECK-NOT:     epilogue
// CHECK-NOT:     residual
// CHECK:         return
// NEG-LABEL: func.func @negative
// NEG:         host.linear %arg0, %arg1 into %[[T0:[^ ]*]] :
// NEG-NEXT:    host.elementwise gelu_tanh %[[T0]] into %arg3
// NEG:         host.linear %arg0, %arg1 into %arg4 :
// NEG-NEXT:    host.elementwise gelu_tanh %arg4 into %arg3
// NEG:         host.linear %arg0, %arg1 into %[[T1:[^ ]*]] accumulate :
// NEG-NEXT:    host.elementwise add %[[T1]], %arg2 into %arg3
// NEG:         host.linear %arg0, %arg1 into %[[T2:[^ ]*]] :
// NEG:         host.elementwise cast %[[T2]]
// NEG:         host.linear %arg0, %arg1 into %[[TD:[^ ]*]] :
// NEG-NEXT:    host.elementwise add %[[TD]], %arg8 into %arg8
// NEG:         host.linear %arg0, %arg1 into %[[T3:[^ ]*]] :
// NEG-NEXT:    host.elementwise neg %arg0 into %arg0
// NEG-NEXT:    host.elementwise gelu_tanh %[[T3]] into %arg3
// NEG:         host.linear %arg0, %arg1 into %[[T4:[^ ]*]] :
// NEG:         host.fill
// NEG:         host.elementwise gelu_tanh %[[T4]] into %arg3
// NEG:         host.linear %arg0, %arg1 into %[[T5:[^ ]*]] :
// NEG-NEXT:    host.set_stream %arg7
// NEG-NEXT:    host.elementwise gelu_tanh %[[T5]] into %arg3
// NEG:         host.linear %arg6, %arg6 into %[[T6:[^ ]*]] :
// NEG-NEXT:    host.elementwise gelu_tanh %[[T6]] into %arg6
// NEG:         host.linear %arg0, %arg1 into %[[T7:[^ ]*]] :
// NEG-NEXT:    host.for
// NEG-NEXT:      host.elementwise gelu_tanh %[[T7]] into %arg3
// NEG:         host.linear %arg0, %arg1 into %[[T8:[^ ]*]] :
// NEG-NEXT:    host.fill %arg2
// NEG-NEXT:    host.elementwise add %[[T8]], %arg2 into %arg3
// NEG:         host.linear %arg0, %arg1 into %[[T9:[^ ]*]] :
// NEG-NEXT:    host.elementwise gelu_tanh %[[T9]] into %arg9
// NEG-NEXT:    return
func.func @negative(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %r: !host.buf<4x16xf32>, %y: !host.buf<4x16xf32>,
                    %arg: !host.buf<4x16xf32>, %h: !host.buf<4x16xf16>, %sq: !host.buf<16x16xf32>, %s: !host.stream,
                    %rd: !host.buf<?x16xf32>, %yd: !host.buf<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // Another use of the intermediate.
  %t0 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t0 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise gelu_tanh %t0 into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>
  host.copy %t0, %r : !host.buf<4x16xf32>, !host.buf<4x16xf32>
  // A function argument as the intermediate.
  host.linear %x, %w into %arg : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise gelu_tanh %arg into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>
  // Accumulate.
  %t1 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t1 accumulate : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise add %t1, %r into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  // A cast consumer (then an add in f16).
  %t2 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t2 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  %t2h = host.alloc() : !host.buf<4x16xf16>
  host.elementwise cast %t2 into %t2h : !host.buf<4x16xf32>, !host.buf<4x16xf16>
  host.elementwise add %t2h, %h into %h : !host.buf<4x16xf16>, !host.buf<4x16xf16>, !host.buf<4x16xf16>
  // Shapes that are only compatible (4x16 and ?x16).
  %td = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %td : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise add %td, %rd into %rd : !host.buf<4x16xf32>, !host.buf<?x16xf32>, !host.buf<?x16xf32>
  // x written in between.
  %t3 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t3 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise neg %x into %x : !host.buf<4x8xf32>, !host.buf<4x8xf32>
  host.elementwise gelu_tanh %t3 into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>
  // w written through a view, inside a loop, in between.
  %t4 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t4 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.for %i = %c0 to %c2 step %c1 {
    %wi = host.shard_by_stream %w[%i] axis = 0 chunks = 2 : !host.buf<16x8xf32> -> !host.view<8x8xf32, strides = [8, 1]>
    host.fill %wi {value = 0.0 : f32} : !host.view<8x8xf32, strides = [8, 1]>
  }
  host.elementwise gelu_tanh %t4 into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>
  // A stream switch in between.
  %t5 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t5 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.set_stream %s
  host.elementwise gelu_tanh %t5 into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>
  // The output is an input of the GEMM.
  %t6 = host.alloc() : !host.buf<16x16xf32>
  host.linear %sq, %sq into %t6 : !host.buf<16x16xf32>, !host.buf<16x16xf32>, !host.buf<16x16xf32>
  host.elementwise gelu_tanh %t6 into %sq : !host.buf<16x16xf32>, !host.buf<16x16xf32>
  // The elementwise op in a nested block.
  %t7 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t7 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.for %i = %c0 to %c1 step %c1 {
    host.elementwise gelu_tanh %t7 into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>
  }
  // The residual written in between.
  %t8 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t8 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.fill %r {value = 1.0 : f32} : !host.buf<4x16xf32>
  host.elementwise add %t8, %r into %y : !host.buf<4x16xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  // A gelu output whose shape is only compatible (?x16).
  %t9 = host.alloc() : !host.buf<4x16xf32>
  host.linear %x, %w into %t9 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise gelu_tanh %t9 into %yd : !host.buf<4x16xf32>, !host.buf<?x16xf32>
  return
}
