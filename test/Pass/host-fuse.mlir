// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-fuse))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-fuse{enabled=false}))' | FileCheck %s --check-prefix=OFF
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-fuse))' --mlir-print-op-generic | fuser-opt --split-input-file | FileCheck %s

// host-fuse: chains of elementwise ops, reductions, norms, dropout and broadcast copies become
// one host.fused region each; buffers used only inside a region are no longer allocated.

// A bias broadcast (a stride-0 view read directly), an add and a tanh-GELU: one region; the
// sum's buffer is an intermediate, the GELU's is returned.
// CHECK-LABEL: func.func @bias_gelu
// CHECK-NEXT: %[[V:.*]] = host.expand %arg1 dims = [0]
// CHECK-NEXT: %[[Y:.*]] = host.alloc() : !host.buf<4x8xbf16>
// CHECK-NEXT: host.fused (%[[V]], %arg0) into (%[[Y]]) : (!host.view<4x8xbf16, strides = [0, 1]>, !host.buf<4x8xbf16>) into (!host.buf<4x8xbf16>) {
// CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<4x8xbf16>, %[[A:.*]]: tensor<4x8xbf16>):
// CHECK-NEXT: %[[S:.*]] = fusion.add %[[A]], %[[B]]
// CHECK-NEXT: %[[G:.*]] = fusion.gelu %[[S]] {approximate = "tanh"}
// CHECK-NEXT: host.yield %[[G]] : tensor<4x8xbf16>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[Y]]
// OFF-LABEL: func.func @bias_gelu
// OFF: host.copy
// OFF: host.elementwise add
// OFF: host.elementwise gelu_tanh
// OFF-NOT: host.fused
func.func @bias_gelu(%x: !host.buf<4x8xbf16>, %bias: !host.buf<8xbf16>) -> !host.buf<4x8xbf16> {
  %b = host.alloc() : !host.buf<4x8xbf16>
  %v = host.expand %bias dims = [0] : !host.buf<8xbf16> -> !host.view<4x8xbf16, strides = [0, 1]>
  host.copy %v, %b : !host.view<4x8xbf16, strides = [0, 1]>, !host.buf<4x8xbf16>
  %s = host.alloc() : !host.buf<4x8xbf16>
  host.elementwise add %x, %b into %s : !host.buf<4x8xbf16>, !host.buf<4x8xbf16>, !host.buf<4x8xbf16>
  %y = host.alloc() : !host.buf<4x8xbf16>
  host.elementwise gelu_tanh %s into %y : !host.buf<4x8xbf16>, !host.buf<4x8xbf16>
  return %y : !host.buf<4x8xbf16>
}

// -----

// A hand-written softmax: a row max, its broadcast back along the row (a copy of an expand of
// a region buffer), subtract, exp, row sum, broadcast, divide. The row max is also returned.
// CHECK-LABEL: func.func @softmax_by_hand
// CHECK-NOT: host.copy
// CHECK-NOT: host.expand
// CHECK: host.fused (%arg0) into (%{{.*}}, %{{.*}}) : (!host.buf<4x8xf32>) into (!host.buf<4xf32>, !host.buf<4x8xf32>) {
// CHECK: fusion.max %{{.*}} dims = [1]
// CHECK: fusion.broadcast %{{.*}} dims = [1]
// CHECK: fusion.sub
// CHECK: fusion.exp
// CHECK: fusion.sum %{{.*}} dims = [1]
// CHECK: fusion.broadcast
// CHECK: fusion.div
// CHECK: host.yield
// CHECK-NOT: host.alloc
// CHECK: return
func.func @softmax_by_hand(%x: !host.buf<4x8xf32>) -> (!host.buf<4xf32>, !host.buf<4x8xf32>) {
  %m = host.alloc() : !host.buf<4xf32>
  host.reduce max %x into %m dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>
  %mb = host.alloc() : !host.buf<4x8xf32>
  %mv = host.expand %m dims = [1] : !host.buf<4xf32> -> !host.view<4x8xf32, strides = [1, 0]>
  host.copy %mv, %mb : !host.view<4x8xf32, strides = [1, 0]>, !host.buf<4x8xf32>
  %d = host.alloc() : !host.buf<4x8xf32>
  host.elementwise sub %x, %mb into %d : !host.buf<4x8xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>
  %e = host.alloc() : !host.buf<4x8xf32>
  host.elementwise exp %d into %e : !host.buf<4x8xf32>, !host.buf<4x8xf32>
  %s = host.alloc() : !host.buf<4xf32>
  host.sum %e into %s dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>
  %sb = host.alloc() : !host.buf<4x8xf32>
  %sv = host.expand %s dims = [1] : !host.buf<4xf32> -> !host.view<4x8xf32, strides = [1, 0]>
  host.copy %sv, %sb : !host.view<4x8xf32, strides = [1, 0]>, !host.buf<4x8xf32>
  %y = host.alloc() : !host.buf<4x8xf32>
  host.elementwise div %e, %sb into %y : !host.buf<4x8xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>
  return %m, %y : !host.buf<4xf32>, !host.buf<4x8xf32>
}

// -----

// A GEMM between two chains ends the first region; a reduction over the leading axis is not
// fused (regions reduce over trailing axes), nor is an in-place update, nor integer math.
// CHECK-LABEL: func.func @boundaries
// CHECK: host.fused (%arg0) into (%[[N:.*]]) :
// CHECK: fusion.neg
// CHECK: host.linear %[[N]], %arg1 into %[[L:[^ ]*]]
// CHECK: host.fused (%[[L]]) into
// CHECK: fusion.exp
// CHECK: host.sum %{{.*}} dims = [0]
// CHECK: host.elementwise add %{{.*}}, %{{.*}} into %arg2
// CHECK: host.elementwise add %arg3, %arg3 into %{{.*}} : !host.buf<4xi32>
// CHECK-NOT: host.fused
func.func @boundaries(%x: !host.buf<4x8xf32>, %w: !host.buf<8x8xf32>, %acc: !host.buf<8xf32>, %i: !host.buf<4xi32>) -> (!host.buf<8xf32>, !host.buf<4xi32>) {
  %n = host.alloc() : !host.buf<4x8xf32>
  host.elementwise neg %x into %n : !host.buf<4x8xf32>, !host.buf<4x8xf32>
  %l = host.alloc() : !host.buf<4x8xf32>
  host.linear %n, %w into %l : !host.buf<4x8xf32>, !host.buf<8x8xf32>, !host.buf<4x8xf32>
  %e = host.alloc() : !host.buf<4x8xf32>
  host.elementwise exp %l into %e : !host.buf<4x8xf32>, !host.buf<4x8xf32>
  %c = host.alloc() : !host.buf<8xf32>
  host.sum %e into %c dims = [0] : !host.buf<4x8xf32>, !host.buf<8xf32>
  host.elementwise add %acc, %c into %acc : !host.buf<8xf32>, !host.buf<8xf32>, !host.buf<8xf32>
  %j = host.alloc() : !host.buf<4xi32>
  host.elementwise add %i, %i into %j : !host.buf<4xi32>, !host.buf<4xi32>, !host.buf<4xi32>
  return %acc, %j : !host.buf<8xf32>, !host.buf<4xi32>
}

// -----

// Norms with statistics and dropout join regions; two dropouts with different origins do not
// share one (each region has one origin). A fill used outside stays a host.fill.
// CHECK-LABEL: func.func @norm_dropout
// CHECK: host.fused (%arg0, %arg1, %arg2, %arg3) into (%[[R:[^,]*]], %[[Y:[^)]*]]) origin(%arg4, %c0) {global_shape = array<i64: 8, 8>}
// CHECK: fusion.rms_norm
// CHECK: fusion.dropout
// CHECK: host.yield
// CHECK: host.fused (%[[Y]], %arg2, %arg3) into (%{{.*}}) origin(%c0, %c0) {global_shape = array<i64: 8, 8>}
// CHECK: fusion.dropout
// CHECK: host.fill %[[F:.*]] {value
// CHECK: return
func.func @norm_dropout(%x: !host.buf<4x8xf32>, %w: !host.buf<8xf32>, %seed: !host.buf<i64>, %off: !host.buf<i64>, %o: index) -> (!host.buf<4x8xf32>, !host.buf<4xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = host.alloc() : !host.buf<4x8xf32>
  %r = host.alloc() : !host.buf<4xf32>
  host.kernel "rms_norm" (%x, %w) into (%n, %r) params {dims = array<i64: 1>} : (!host.buf<4x8xf32>, !host.buf<8xf32>) into (!host.buf<4x8xf32>, !host.buf<4xf32>)
  %y = host.alloc() : !host.buf<4x8xf32>
  host.kernel "dropout" (%n, %seed, %off) into (%y) origin(%o, %c0) params {global_shape = array<i64: 8, 8>, p = 1.000000e-01 : f64} : (!host.buf<4x8xf32>, !host.buf<i64>, !host.buf<i64>) into (!host.buf<4x8xf32>)
  %z = host.alloc() : !host.buf<4x8xf32>
  host.kernel "dropout" (%y, %seed, %off) into (%z) origin(%c0, %c0) params {global_shape = array<i64: 8, 8>, p = 1.000000e-01 : f64} : (!host.buf<4x8xf32>, !host.buf<i64>, !host.buf<i64>) into (!host.buf<4x8xf32>)
  %f = host.alloc() : !host.buf<4x8xf32>
  host.fill %f {value = 1.0 : f32} : !host.buf<4x8xf32>
  return %y, %r, %z, %f : !host.buf<4x8xf32>, !host.buf<4xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>
}

// -----

// In a stream loop's body a region stays inside the body (one per chunk).
// CHECK-LABEL: func.func @in_loop
// CHECK: host.for
// CHECK: host.shard_by_stream
// CHECK: host.fused
// CHECK: fusion.sigmoid
// CHECK: fusion.mul
// CHECK: host.yield
// CHECK: }
func.func @in_loop(%x: !host.buf<4x8xf32>, %y: !host.buf<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  host.for %i = %c0 to %c2 step %c1 {
    %xc = host.shard_by_stream %x[%i] axis = 0 chunks = 2 : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
    %s = host.alloc() : !host.buf<2x8xf32>
    host.elementwise sigmoid %xc into %s : !host.view<2x8xf32, strides = [8, 1]>, !host.buf<2x8xf32>
    %yc = host.shard_by_stream %y[%i] axis = 0 chunks = 2 : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
    host.elementwise mul %xc, %s into %yc : !host.view<2x8xf32, strides = [8, 1]>, !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [8, 1]>
  }
  return
}
