// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of every fusion op, the mesh forms and the #fusion.shard attribute.

// CHECK:      fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-NEXT: fusion.mesh @m = {{\[\[}}0, 1, 2], [3, 4, 5]]
// CHECK-NEXT: fusion.mesh @cube = {{\[\[\[}}0, 1], [2, 3]], {{\[\[}}4, 5], [6, 7]]]
// CHECK-NEXT: fusion.mesh @one = [7] {note = "single"}
// GENERIC:      "fusion.mesh"() <{devices = array<i64: 0, 1, 2, 3>, shape = array<i64: 4>, sym_name = "tp"}> : () -> ()
// GENERIC-NEXT: "fusion.mesh"() <{devices = array<i64: 0, 1, 2, 3, 4, 5>, shape = array<i64: 2, 3>, sym_name = "m"}> : () -> ()
// GENERIC-NEXT: "fusion.mesh"() <{devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, shape = array<i64: 2, 2, 2>, sym_name = "cube"}> : () -> ()
// GENERIC-NEXT: "fusion.mesh"() <{devices = array<i64: 7>, shape = array<i64: 1>, sym_name = "one"}> {note = "single"} : () -> ()
fusion.mesh @tp = [0, 1, 2, 3]
fusion.mesh @m = [[0, 1, 2], [3, 4, 5]]
fusion.mesh @cube = [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
fusion.mesh @one = [7] {note = "single"}

// CHECK-LABEL: func.func @shardings
// CHECK-SAME: tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK-SAME: tensor<48x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(3), DIDx], []]>>
// CHECK-SAME: tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}], []], partial = [DIDx]>>
// CHECK-SAME: tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}], []], partial = [DIDx], reduce = max>>
// CHECK-SAME: tensor<6x12xf32, #fusion.shard<@m, {{\[\[}}DIDy], [DIDx]]>>
// CHECK-SAME: tensor<8x4xf32, #fusion.shard<@m, {{\[\[}}], [Stream(2)]], partial = [DIDy, DIDx], reduce = min>>
// CHECK-SAME: tensor<?x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], [Stream(4)]]>>
// GENERIC-LABEL: sym_name = "shardings"
// GENERIC: "fusion.set"(%{{arg[0-9]+}}) : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
func.func @shardings(%a: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                     %b: tensor<48x16xf32, #fusion.shard<@tp, [[Stream(3), DIDx], []]>>,
                     %c: tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = sum>>,
                     %d: tensor<8x16xf32, #fusion.shard<@tp,[[],[]],reduce=max,partial=[DIDx]>>,
                     %e: tensor<6x12xf32, #fusion.shard<@m, [[DIDy], [DIDx]]>>,
                     %f: tensor<8x4xf32, #fusion.shard<@m, [[], [Stream(2)]], partial = [DIDy, DIDx], reduce = min>>,
                     %g: tensor<?x16xf32, #fusion.shard<@tp, [[DIDx], [Stream(4)]]>>) {
  // CHECK: fusion.set %arg0 : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
  %0 = fusion.set %a : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
  // CHECK: fusion.sum %arg2 dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}], []], partial = [DIDx]>>) -> tensor<8xf32, #fusion.shard<@tp, {{\[\[}}]]>>
  %1 = fusion.sum %c dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<8xf32, #fusion.shard<@tp, [[]]>>
  return
}

// CHECK-LABEL: func.func @ops
// GENERIC-LABEL: sym_name = "ops"
func.func @ops(%a: tensor<5x7xf32>, %b: tensor<7x6xf32>, %bb: tensor<3x7x6xf32>, %a3: tensor<3x5x7xf32>,
               %x: tensor<8x16xbf16>, %w: tensor<32x16xbf16>, %bias: tensor<32xbf16>, %dyn: tensor<?x7xf32>) {
  // CHECK-NEXT: %0 = fusion.matmul %arg0, %arg1 : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x6xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.matmul"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x6xf32>
  %0 = fusion.matmul %a, %b : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x6xf32>
  // CHECK-NEXT: %1 = fusion.matmul %arg3, %arg2 : (tensor<3x5x7xf32>, tensor<3x7x6xf32>) -> tensor<3x5x6xf32>
  %1 = fusion.matmul %a3, %bb : (tensor<3x5x7xf32>, tensor<3x7x6xf32>) -> tensor<3x5x6xf32>
  // CHECK-NEXT: %2 = fusion.matmul %arg3, %arg1 : (tensor<3x5x7xf32>, tensor<7x6xf32>) -> tensor<3x5x6xf32>
  %2 = fusion.matmul %a3, %b : (tensor<3x5x7xf32>, tensor<7x6xf32>) -> tensor<3x5x6xf32>
  // CHECK-NEXT: %3 = fusion.linear %arg4, %arg5 : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  // GENERIC:    %{{[0-9]+}} = "fusion.linear"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  %3 = fusion.linear %x, %w : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x32xbf16>
  // CHECK-NEXT: %4 = fusion.linear %arg4, %arg5, %arg6 : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
  // GENERIC:    %{{[0-9]+}} = "fusion.linear"(%{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}) : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
  %4 = fusion.linear %x, %w, %bias : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
  // CHECK-NEXT: %5 = fusion.add %arg0, %arg0 : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.add"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  %5 = fusion.add %a, %a : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  // CHECK-NEXT: %6 = fusion.sub %arg0, %arg7 : (tensor<5x7xf32>, tensor<?x7xf32>) -> tensor<5x7xf32>
  %6 = fusion.sub %a, %dyn : (tensor<5x7xf32>, tensor<?x7xf32>) -> tensor<5x7xf32>
  // CHECK-NEXT: %7 = fusion.mul %arg0, %arg0 : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  %7 = fusion.mul %a, %a : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  // CHECK-NEXT: %8 = fusion.div %arg0, %arg0 : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  %8 = fusion.div %a, %a : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  // CHECK-NEXT: %9 = fusion.neg %arg0 : (tensor<5x7xf32>) -> tensor<5x7xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.neg"(%{{arg[0-9]+}}) : (tensor<5x7xf32>) -> tensor<5x7xf32>
  %9 = fusion.neg %a : (tensor<5x7xf32>) -> tensor<5x7xf32>
  // CHECK-NEXT: %10 = fusion.cast %arg4 : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  %10 = fusion.cast %x : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  // CHECK-NEXT: %11 = fusion.cast %arg0 : (tensor<5x7xf32>) -> tensor<5x7xi8>
  %11 = fusion.cast %a : (tensor<5x7xf32>) -> tensor<5x7xi8>
  // CHECK-NEXT: %12 = fusion.sum %arg0 dims = [1] : (tensor<5x7xf32>) -> tensor<5xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.sum"(%{{arg[0-9]+}}) <{dims = array<i64: 1>}> : (tensor<5x7xf32>) -> tensor<5xf32>
  %12 = fusion.sum %a dims = [1] : (tensor<5x7xf32>) -> tensor<5xf32>
  // CHECK-NEXT: %13 = fusion.sum %arg3 dims = [0, 2] keep_dims : (tensor<3x5x7xf32>) -> tensor<1x5x1xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.sum"(%{{arg[0-9]+}}) <{dims = array<i64: 0, 2>, keep_dims}> : (tensor<3x5x7xf32>) -> tensor<1x5x1xf32>
  %13 = fusion.sum %a3 dims = [2, 0] keep_dims : (tensor<3x5x7xf32>) -> tensor<1x5x1xf32>
  // CHECK-NEXT: %14 = fusion.set %arg0 : (tensor<5x7xf32>) -> tensor<5x7xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.set"(%{{arg[0-9]+}}) : (tensor<5x7xf32>) -> tensor<5x7xf32>
  %14 = fusion.set %a : (tensor<5x7xf32>) -> tensor<5x7xf32>
  // CHECK-NEXT: %15 = fusion.broadcast %arg1 dims = [0, 3] : (tensor<7x6xf32>) -> tensor<4x7x6x2xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.broadcast"(%{{arg[0-9]+}}) <{dims = array<i64: 0, 3>}> : (tensor<7x6xf32>) -> tensor<4x7x6x2xf32>
  %15 = fusion.broadcast %b dims = [0, 3] : (tensor<7x6xf32>) -> tensor<4x7x6x2xf32>
  // CHECK-NEXT: %16 = fusion.reshape %arg3 : (tensor<3x5x7xf32>) -> tensor<15x7xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.reshape"(%{{arg[0-9]+}}) : (tensor<3x5x7xf32>) -> tensor<15x7xf32>
  %16 = fusion.reshape %a3 : (tensor<3x5x7xf32>) -> tensor<15x7xf32>
  // CHECK-NEXT: %17 = fusion.reshape %arg7 : (tensor<?x7xf32>) -> tensor<?xf32>
  %17 = fusion.reshape %dyn : (tensor<?x7xf32>) -> tensor<?xf32>
  // CHECK-NEXT: %18 = fusion.permute %arg3 dims = [2, 0, 1] : (tensor<3x5x7xf32>) -> tensor<7x3x5xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.permute"(%{{arg[0-9]+}}) <{dims = array<i64: 2, 0, 1>}> : (tensor<3x5x7xf32>) -> tensor<7x3x5xf32>
  %18 = fusion.permute %a3 dims = [2, 0, 1] : (tensor<3x5x7xf32>) -> tensor<7x3x5xf32>
  // CHECK-NEXT: %19 = fusion.add %arg0, %arg0 {tag = 1 : i64} : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.add"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) {tag = 1 : i64} : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  %19 = fusion.add %a, %a {tag = 1} : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  return
}

// Meshes in an enclosing module are found from a nested one.
// CHECK-LABEL: module @inner
module @inner {
  // CHECK: fusion.set %arg0 : (tensor<4xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>) -> tensor<4xf32, #fusion.shard<@one, {{\[\[}}]]>>
  func.func @nested(%a: tensor<4xf32, #fusion.shard<@tp, [[DIDx]]>>) {
    %0 = fusion.set %a : (tensor<4xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<4xf32, #fusion.shard<@one, [[]]>>
    return
  }
}
