// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Every host op in custom form, its generic form, and the generic form read back. The generic
// output is also fed to mlir-opt-19 by mlir-opt/ops.mlir.

// CHECK-LABEL: func.func @alloc(%arg0: index, %arg1: index) {
// CHECK-NEXT: %0 = host.alloc(%arg0, %arg1) : !host.buf<?x?xf32>
// CHECK-NEXT: %1 = host.alloc() persistent : !host.buf<128x1024xbf16, ipc>
// CHECK-NEXT: %2 = host.alloc(%arg1) {test.tag} : !host.buf<4x?xi32, pinned>
// CHECK-NEXT: host.dealloc %0 : !host.buf<?x?xf32>
// CHECK-NEXT: host.dealloc %1 {test.tag} : !host.buf<128x1024xbf16, ipc>
// CHECK-NEXT: host.dealloc %2 : !host.buf<4x?xi32, pinned>
// CHECK-NEXT: return
// GENERIC-LABEL: "func.func"() <{function_type = (index, index) -> (), sym_name = "alloc"}> ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.alloc"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (index, index) -> !host.buf<?x?xf32>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.alloc"() <{persistent}> : () -> !host.buf<128x1024xbf16, ipc>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.alloc"(%{{[a-z0-9]+}}) {test.tag} : (index) -> !host.buf<4x?xi32, pinned>
// GENERIC-NEXT: "host.dealloc"(%{{[a-z0-9]+}}) : (!host.buf<?x?xf32>) -> ()
// GENERIC-NEXT: "host.dealloc"(%{{[a-z0-9]+}}) {test.tag} : (!host.buf<128x1024xbf16, ipc>) -> ()
// GENERIC-NEXT: "host.dealloc"(%{{[a-z0-9]+}}) : (!host.buf<4x?xi32, pinned>) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
func.func @alloc(%m: index, %n: index) {
  %0 = host.alloc(%m, %n) : !host.buf<?x?xf32>
  %1 = host.alloc() persistent : !host.buf<128x1024xbf16, ipc>
  %2 = host.alloc(%n) {test.tag} : !host.buf<4x?xi32, pinned>
  host.dealloc %0 : !host.buf<?x?xf32>
  host.dealloc %1 {test.tag} : !host.buf<128x1024xbf16, ipc>
  host.dealloc %2 : !host.buf<4x?xi32, pinned>
  return
}

// CHECK-LABEL: func.func @views(%arg0: !host.buf<5x6xf32>, %arg1: !host.buf<?x8xf32>, %arg2: index, %arg3: index) {
// CHECK-NEXT: %0 = host.shard_by_stream %arg0[%arg2] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>
// CHECK-NEXT: %1 = host.shard_by_stream %0[%arg2] axis = 0 chunks = 5 : !host.view<5x2xf32, strides = [6, 1]> -> !host.view<1x2xf32, strides = [6, 1]>
// CHECK-NEXT: %2 = host.shard_by_stream %arg1[%arg2] axis = 0 chunks = 4 : !host.buf<?x8xf32> -> !host.view<?x8xf32, strides = [8, 1]>
// CHECK-NEXT: %3 = host.select %arg0[%arg2] axis = 0 : !host.buf<5x6xf32> -> !host.view<6xf32, strides = [1]>
// CHECK-NEXT: %4 = host.select %0[%arg2] axis = 1 : !host.view<5x2xf32, strides = [6, 1]> -> !host.view<5xf32, strides = [6]>
// CHECK-NEXT: %5 = host.slice %arg0[%arg2, 0] [2, 6] [1, 1] : !host.buf<5x6xf32> -> !host.view<2x6xf32, strides = [6, 1]>
// CHECK-NEXT: %6 = host.slice %arg0[0, 1] [%arg3, 2] [2, %arg2] : !host.buf<5x6xf32> -> !host.view<?x2xf32, strides = [12, ?]>
// CHECK-NEXT: %7 = host.slice %arg1[1, 0] [2, 4] [1, 2] {test.tag} : !host.buf<?x8xf32> -> !host.view<2x4xf32, strides = [8, 2]>
// CHECK-NEXT: return
// GENERIC-LABEL: "func.func"() <{function_type = (!host.buf<5x6xf32>, !host.buf<?x8xf32>, index, index) -> (), sym_name = "views"}> ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: !host.buf<5x6xf32>, %{{[a-z0-9]+}}: !host.buf<?x8xf32>, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.shard_by_stream"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{axis = 1 : i64, chunks = 3 : i64}> : (!host.buf<5x6xf32>, index) -> !host.view<5x2xf32, strides = [6, 1]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.shard_by_stream"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{axis = 0 : i64, chunks = 5 : i64}> : (!host.view<5x2xf32, strides = [6, 1]>, index) -> !host.view<1x2xf32, strides = [6, 1]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.shard_by_stream"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{axis = 0 : i64, chunks = 4 : i64}> : (!host.buf<?x8xf32>, index) -> !host.view<?x8xf32, strides = [8, 1]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.select"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{axis = 0 : i64}> : (!host.buf<5x6xf32>, index) -> !host.view<6xf32, strides = [1]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.select"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{axis = 1 : i64}> : (!host.view<5x2xf32, strides = [6, 1]>, index) -> !host.view<5xf32, strides = [6]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.slice"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 2, 6>, static_strides = array<i64: 1, 1>}> : (!host.buf<5x6xf32>, index) -> !host.view<2x6xf32, strides = [6, 1]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.slice"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{operandSegmentSizes = array<i32: 1, 0, 1, 1>, static_offsets = array<i64: 0, 1>, static_sizes = array<i64: -9223372036854775808, 2>, static_strides = array<i64: 2, -9223372036854775808>}> : (!host.buf<5x6xf32>, index, index) -> !host.view<?x2xf32, strides = [12, ?]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.slice"(%{{[a-z0-9]+}}) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1, 0>, static_sizes = array<i64: 2, 4>, static_strides = array<i64: 1, 2>}> {test.tag} : (!host.buf<?x8xf32>) -> !host.view<2x4xf32, strides = [8, 2]>
// GENERIC-NEXT: "func.return"() : () -> ()
func.func @views(%b: !host.buf<5x6xf32>, %d: !host.buf<?x8xf32>, %i: index, %n: index) {
  %0 = host.shard_by_stream %b[%i] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>
  %1 = host.shard_by_stream %0[%i] axis = 0 chunks = 5 : !host.view<5x2xf32, strides = [6, 1]> -> !host.view<1x2xf32, strides = [6, 1]>
  %2 = host.shard_by_stream %d[%i] axis = 0 chunks = 4 : !host.buf<?x8xf32> -> !host.view<?x8xf32, strides = [8, 1]>
  %3 = host.select %b[%i] axis = 0 : !host.buf<5x6xf32> -> !host.view<6xf32, strides = [1]>
  %4 = host.select %0[%i] axis = 1 : !host.view<5x2xf32, strides = [6, 1]> -> !host.view<5xf32, strides = [6]>
  %5 = host.slice %b[%i, 0] [2, 6] [1, 1] : !host.buf<5x6xf32> -> !host.view<2x6xf32, strides = [6, 1]>
  %6 = host.slice %b[0, 1] [%n, 2] [2, %i] : !host.buf<5x6xf32> -> !host.view<?x2xf32, strides = [12, ?]>
  %7 = host.slice %d[1, 0] [2, 4] [1, 2] {test.tag} : !host.buf<?x8xf32> -> !host.view<2x4xf32, strides = [8, 2]>
  return
}

// CHECK-LABEL: func.func @compute(%arg0: !host.buf<4x8xf32>, %arg1: !host.buf<16x8xf32>, %arg2: !host.buf<16xf32>, %arg3: !host.buf<4x16xf32>, %arg4: !host.buf<8x16xf32>, %arg5: !host.buf<2x4x8xbf16>, %arg6: !host.buf<8x16xbf16>, %arg7: !host.buf<2x4x16xf32>, %arg8: !host.view<4x8xf32, strides = [16, 1]>, %arg9: !host.buf<4x8xbf16>, %arg10: !host.buf<4xf32>) {
// CHECK-NEXT: host.copy %arg8, %arg0 : !host.view<4x8xf32, strides = [16, 1]>, !host.buf<4x8xf32>
// CHECK-NEXT: host.matmul %arg0, %arg4 into %arg3 : !host.buf<4x8xf32>, !host.buf<8x16xf32>, !host.buf<4x16xf32>
// CHECK-NEXT: host.matmul %arg5, %arg6 into %arg7 accumulate : !host.buf<2x4x8xbf16>, !host.buf<8x16xbf16>, !host.buf<2x4x16xf32>
// CHECK-NEXT: host.linear %arg0, %arg1, %arg2 into %arg3 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf32>, !host.buf<4x16xf32>
// CHECK-NEXT: host.linear %arg8, %arg1 into %arg3 {test.tag} : !host.view<4x8xf32, strides = [16, 1]>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
// CHECK-NEXT: host.elementwise add %arg0, %arg8 into %arg0 : !host.buf<4x8xf32>, !host.view<4x8xf32, strides = [16, 1]>, !host.buf<4x8xf32>
// CHECK-NEXT: host.elementwise max %arg0, %arg0 into %arg0 : !host.buf<4x8xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>
// CHECK-NEXT: host.elementwise neg %arg0 into %arg0 : !host.buf<4x8xf32>, !host.buf<4x8xf32>
// CHECK-NEXT: host.elementwise cast %arg0 into %arg9 : !host.buf<4x8xf32>, !host.buf<4x8xbf16>
// CHECK-NEXT: host.sum %arg0 into %arg10 dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>
// CHECK-NEXT: return
// GENERIC-LABEL: "func.func"() <{function_type = (!host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf32>, !host.buf<4x16xf32>, !host.buf<8x16xf32>, !host.buf<2x4x8xbf16>, !host.buf<8x16xbf16>, !host.buf<2x4x16xf32>, !host.view<4x8xf32, strides = [16, 1]>, !host.buf<4x8xbf16>, !host.buf<4xf32>) -> (), sym_name = "compute"}> ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: !host.buf<4x8xf32>, %{{[a-z0-9]+}}: !host.buf<16x8xf32>, %{{[a-z0-9]+}}: !host.buf<16xf32>, %{{[a-z0-9]+}}: !host.buf<4x16xf32>, %{{[a-z0-9]+}}: !host.buf<8x16xf32>, %{{[a-z0-9]+}}: !host.buf<2x4x8xbf16>, %{{[a-z0-9]+}}: !host.buf<8x16xbf16>, %{{[a-z0-9]+}}: !host.buf<2x4x16xf32>, %{{[a-z0-9]+}}: !host.view<4x8xf32, strides = [16, 1]>, %{{[a-z0-9]+}}: !host.buf<4x8xbf16>, %{{[a-z0-9]+}}: !host.buf<4xf32>):
// GENERIC-NEXT: "host.copy"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (!host.view<4x8xf32, strides = [16, 1]>, !host.buf<4x8xf32>) -> ()
// GENERIC-NEXT: "host.matmul"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (!host.buf<4x8xf32>, !host.buf<8x16xf32>, !host.buf<4x16xf32>) -> ()
// GENERIC-NEXT: "host.matmul"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{accumulate}> : (!host.buf<2x4x8xbf16>, !host.buf<8x16xbf16>, !host.buf<2x4x16xf32>) -> ()
// GENERIC-NEXT: "host.linear"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (!host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf32>, !host.buf<4x16xf32>) -> ()
// GENERIC-NEXT: "host.linear"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}> {test.tag} : (!host.view<4x8xf32, strides = [16, 1]>, !host.buf<16x8xf32>, !host.buf<4x16xf32>) -> ()
// GENERIC-NEXT: "host.elementwise"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{kind = "add"}> : (!host.buf<4x8xf32>, !host.view<4x8xf32, strides = [16, 1]>, !host.buf<4x8xf32>) -> ()
// GENERIC-NEXT: "host.elementwise"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{kind = "max"}> : (!host.buf<4x8xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>) -> ()
// GENERIC-NEXT: "host.elementwise"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{kind = "neg"}> : (!host.buf<4x8xf32>, !host.buf<4x8xf32>) -> ()
// GENERIC-NEXT: "host.elementwise"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{kind = "cast"}> : (!host.buf<4x8xf32>, !host.buf<4x8xbf16>) -> ()
// GENERIC-NEXT: "host.sum"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{dims = array<i64: 1>}> : (!host.buf<4x8xf32>, !host.buf<4xf32>) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
func.func @compute(%a: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %bias: !host.buf<16xf32>, %y: !host.buf<4x16xf32>,
                   %b: !host.buf<8x16xf32>, %batched: !host.buf<2x4x8xbf16>, %bb: !host.buf<8x16xbf16>,
                   %acc: !host.buf<2x4x16xf32>, %v: !host.view<4x8xf32, strides = [16, 1]>, %h: !host.buf<4x8xbf16>,
                   %r: !host.buf<4xf32>) {
  host.copy %v, %a : !host.view<4x8xf32, strides = [16, 1]>, !host.buf<4x8xf32>
  host.matmul %a, %b into %y : !host.buf<4x8xf32>, !host.buf<8x16xf32>, !host.buf<4x16xf32>
  host.matmul %batched, %bb into %acc accumulate : !host.buf<2x4x8xbf16>, !host.buf<8x16xbf16>, !host.buf<2x4x16xf32>
  host.linear %a, %w, %bias into %y : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf32>, !host.buf<4x16xf32>
  host.linear %v, %w into %y {test.tag} : !host.view<4x8xf32, strides = [16, 1]>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  host.elementwise add %a, %v into %a : !host.buf<4x8xf32>, !host.view<4x8xf32, strides = [16, 1]>, !host.buf<4x8xf32>
  host.elementwise max %a, %a into %a : !host.buf<4x8xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>
  host.elementwise neg %a into %a : !host.buf<4x8xf32>, !host.buf<4x8xf32>
  host.elementwise cast %a into %h : !host.buf<4x8xf32>, !host.buf<4x8xbf16>
  host.sum %a into %r dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>
  return
}

// CHECK-LABEL: func.func @control(%arg0: index, %arg1: index, %arg2: index, %arg3: i1, %arg4: !host.buf<4xf32>) {
// CHECK-NEXT: host.for %arg5 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT: %0 = host.get_stream %arg5 : !host.stream
// CHECK-NEXT: host.set_stream %0
// CHECK-NEXT: }
// CHECK-NEXT: host.for %arg5 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT: } {test.tag}
// CHECK-NEXT: host.if %arg3 {
// CHECK-NEXT: host.copy %arg4, %arg4 : !host.buf<4xf32>, !host.buf<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: host.if %arg3 {
// CHECK-NEXT: host.copy %arg4, %arg4 : !host.buf<4xf32>, !host.buf<4xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %rank = host.rank : index
// CHECK-NEXT: }
// CHECK-NEXT: host.if %arg3 {
// CHECK-NEXT: }
// CHECK-NEXT: return
// GENERIC-LABEL: "func.func"() <{function_type = (index, index, index, i1, !host.buf<4xf32>) -> (), sym_name = "control"}> ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: i1, %{{[a-z0-9]+}}: !host.buf<4xf32>):
// GENERIC-NEXT: "host.for"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.get_stream"(%{{[a-z0-9]+}}) : (index) -> !host.stream
// GENERIC-NEXT: "host.set_stream"(%{{[a-z0-9]+}}) : (!host.stream) -> ()
// GENERIC-NEXT: }) : (index, index, index) -> ()
// GENERIC-NEXT: "host.for"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index):
// GENERIC-NEXT: }) {test.tag} : (index, index, index) -> ()
// GENERIC-NEXT: "host.if"(%{{[a-z0-9]+}}) ({
// GENERIC-NEXT: "host.copy"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (!host.buf<4xf32>, !host.buf<4xf32>) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (i1) -> ()
// GENERIC-NEXT: "host.if"(%{{[a-z0-9]+}}) ({
// GENERIC-NEXT: "host.copy"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (!host.buf<4xf32>, !host.buf<4xf32>) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.rank"() : () -> index
// GENERIC-NEXT: }) : (i1) -> ()
// GENERIC-NEXT: "host.if"(%{{[a-z0-9]+}}) ({
// GENERIC-NEXT: ^bb0:
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (i1) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
func.func @control(%lb: index, %ub: index, %step: index, %c: i1, %b: !host.buf<4xf32>) {
  host.for %i = %lb to %ub step %step {
    %s = host.get_stream %i : !host.stream
    host.set_stream %s
  }
  host.for %i = %lb to %ub step %step {
  } {test.tag}
  host.if %c {
    host.copy %b, %b : !host.buf<4xf32>, !host.buf<4xf32>
  }
  host.if %c {
    host.copy %b, %b : !host.buf<4xf32>, !host.buf<4xf32>
  } else {
    %r = host.rank : index
  }
  host.if %c {
  } else {
  }
  return
}

// CHECK-LABEL: func.func @streams_and_misc(%arg0: index, %arg1: !host.buf<4xf32>) -> (index, index) {
// CHECK-NEXT: %0 = host.current_stream : !host.stream
// CHECK-NEXT: %1 = host.get_stream %arg0 : !host.stream
// CHECK-NEXT: host.set_stream %1
// CHECK-NEXT: host.stream_wait %0
// CHECK-NEXT: host.synchronize %1 {test.tag}
// CHECK-NEXT: %rank = host.rank : index
// CHECK-NEXT: %world_size = host.world_size : index
// CHECK-NEXT: host.launch @kernel(%arg1, %rank) : !host.buf<4xf32>, index
// CHECK-NEXT: host.launch @noargs() {test.tag}
// CHECK-NEXT: return %rank, %world_size : index, index
// GENERIC-LABEL: "func.func"() <{function_type = (index, !host.buf<4xf32>) -> (index, index), sym_name = "streams_and_misc"}> ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: !host.buf<4xf32>):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.current_stream"() : () -> !host.stream
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.get_stream"(%{{[a-z0-9]+}}) : (index) -> !host.stream
// GENERIC-NEXT: "host.set_stream"(%{{[a-z0-9]+}}) : (!host.stream) -> ()
// GENERIC-NEXT: "host.stream_wait"(%{{[a-z0-9]+}}) : (!host.stream) -> ()
// GENERIC-NEXT: "host.synchronize"(%{{[a-z0-9]+}}) {test.tag} : (!host.stream) -> ()
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.rank"() : () -> index
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.world_size"() : () -> index
// GENERIC-NEXT: "host.launch"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{callee = @kernel}> : (!host.buf<4xf32>, index) -> ()
// GENERIC-NEXT: "host.launch"() <{callee = @noargs}> {test.tag} : () -> ()
// GENERIC-NEXT: "func.return"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (index, index) -> ()
func.func @streams_and_misc(%i: index, %b: !host.buf<4xf32>) -> (index, index) {
  %main = host.current_stream : !host.stream
  %s = host.get_stream %i : !host.stream
  host.set_stream %s
  host.stream_wait %main
  host.synchronize %s {test.tag}
  %r = host.rank : index
  %n = host.world_size : index
  host.launch @kernel(%b, %r) : !host.buf<4xf32>, index
  host.launch @noargs() {test.tag}
  return %r, %n : index, index
}

// A stream-parallel matmul as fusion-to-host lowers it: the output is allocated at full size
// before the loop; iteration %i runs on worker stream %i (after it has waited for the work
// already posted on the main stream), computes row chunk %i of the output from row chunk %i of
// %a, and the main stream finally waits for every worker.
// CHECK-LABEL: func.func @stream_parallel_matmul(%arg0: !host.buf<12x16xf32>, %arg1: !host.buf<16x32xf32>) -> !host.buf<12x32xf32> {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %0 = host.alloc() : !host.buf<12x32xf32>
// CHECK-NEXT: %1 = host.current_stream : !host.stream
// CHECK-NEXT: host.for %arg2 = %c0 to %c3 step %c1 {
// CHECK-NEXT: %2 = host.get_stream %arg2 : !host.stream
// CHECK-NEXT: host.set_stream %2
// CHECK-NEXT: host.stream_wait %1
// CHECK-NEXT: %3 = host.shard_by_stream %arg0[%arg2] axis = 0 chunks = 3 : !host.buf<12x16xf32> -> !host.view<4x16xf32, strides = [16, 1]>
// CHECK-NEXT: %4 = host.shard_by_stream %0[%arg2] axis = 0 chunks = 3 : !host.buf<12x32xf32> -> !host.view<4x32xf32, strides = [32, 1]>
// CHECK-NEXT: host.matmul %3, %arg1 into %4 : !host.view<4x16xf32, strides = [16, 1]>, !host.buf<16x32xf32>, !host.view<4x32xf32, strides = [32, 1]>
// CHECK-NEXT: }
// CHECK-NEXT: host.set_stream %1
// CHECK-NEXT: host.for %arg2 = %c0 to %c3 step %c1 {
// CHECK-NEXT: %2 = host.get_stream %arg2 : !host.stream
// CHECK-NEXT: host.stream_wait %2
// CHECK-NEXT: }
// CHECK-NEXT: return %0 : !host.buf<12x32xf32>
// GENERIC-LABEL: "func.func"() <{function_type = (!host.buf<12x16xf32>, !host.buf<16x32xf32>) -> !host.buf<12x32xf32>, sym_name = "stream_parallel_matmul"}> ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: !host.buf<12x16xf32>, %{{[a-z0-9]+}}: !host.buf<16x32xf32>):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC-NEXT: %{{[a-z0-9]+}} = "arith.constant"() <{value = 1 : index}> : () -> index
// GENERIC-NEXT: %{{[a-z0-9]+}} = "arith.constant"() <{value = 3 : index}> : () -> index
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.alloc"() : () -> !host.buf<12x32xf32>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.current_stream"() : () -> !host.stream
// GENERIC-NEXT: "host.for"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.get_stream"(%{{[a-z0-9]+}}) : (index) -> !host.stream
// GENERIC-NEXT: "host.set_stream"(%{{[a-z0-9]+}}) : (!host.stream) -> ()
// GENERIC-NEXT: "host.stream_wait"(%{{[a-z0-9]+}}) : (!host.stream) -> ()
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.shard_by_stream"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{axis = 0 : i64, chunks = 3 : i64}> : (!host.buf<12x16xf32>, index) -> !host.view<4x16xf32, strides = [16, 1]>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.shard_by_stream"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{axis = 0 : i64, chunks = 3 : i64}> : (!host.buf<12x32xf32>, index) -> !host.view<4x32xf32, strides = [32, 1]>
// GENERIC-NEXT: "host.matmul"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (!host.view<4x16xf32, strides = [16, 1]>, !host.buf<16x32xf32>, !host.view<4x32xf32, strides = [32, 1]>) -> ()
// GENERIC-NEXT: }) : (index, index, index) -> ()
// GENERIC-NEXT: "host.set_stream"(%{{[a-z0-9]+}}) : (!host.stream) -> ()
// GENERIC-NEXT: "host.for"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.get_stream"(%{{[a-z0-9]+}}) : (index) -> !host.stream
// GENERIC-NEXT: "host.stream_wait"(%{{[a-z0-9]+}}) : (!host.stream) -> ()
// GENERIC-NEXT: }) : (index, index, index) -> ()
// GENERIC-NEXT: "func.return"(%{{[a-z0-9]+}}) : (!host.buf<12x32xf32>) -> ()
func.func @stream_parallel_matmul(%a: !host.buf<12x16xf32>, %b: !host.buf<16x32xf32>) -> !host.buf<12x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %out = host.alloc() : !host.buf<12x32xf32>
  %main = host.current_stream : !host.stream
  host.for %i = %c0 to %c3 step %c1 {
    %s = host.get_stream %i : !host.stream
    host.set_stream %s
    host.stream_wait %main
    %a_i = host.shard_by_stream %a[%i] axis = 0 chunks = 3 : !host.buf<12x16xf32> -> !host.view<4x16xf32, strides = [16, 1]>
    %out_i = host.shard_by_stream %out[%i] axis = 0 chunks = 3 : !host.buf<12x32xf32> -> !host.view<4x32xf32, strides = [32, 1]>
    host.matmul %a_i, %b into %out_i : !host.view<4x16xf32, strides = [16, 1]>, !host.buf<16x32xf32>, !host.view<4x32xf32, strides = [32, 1]>
  }
  host.set_stream %main
  host.for %i = %c0 to %c3 step %c1 {
    %s = host.get_stream %i : !host.stream
    host.stream_wait %s
  }
  return %out : !host.buf<12x32xf32>
}

// Generic input prints in custom form.
// CHECK-LABEL: func.func @generic(%arg0: index, %arg1: i1) {
// CHECK-NEXT: %0 = host.alloc(%arg0) persistent : !host.buf<?x4xf32>
// CHECK-NEXT: %1 = host.slice %0[0, 0] [%arg0, 2] [1, 2] : !host.buf<?x4xf32> -> !host.view<?x2xf32, strides = [4, 2]>
// CHECK-NEXT: host.for %arg2 = %arg0 to %arg0 step %arg0 {
// CHECK-NEXT: host.elementwise mul %1, %1 into %1 : !host.view<?x2xf32, strides = [4, 2]>, !host.view<?x2xf32, strides = [4, 2]>, !host.view<?x2xf32, strides = [4, 2]>
// CHECK-NEXT: }
// CHECK-NEXT: host.if %arg1 {
// CHECK-NEXT: host.dealloc %0 : !host.buf<?x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
// GENERIC-LABEL: "func.func"() <{function_type = (index, i1) -> (), sym_name = "generic"}> ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: i1):
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.alloc"(%{{[a-z0-9]+}}) <{persistent}> : (index) -> !host.buf<?x4xf32>
// GENERIC-NEXT: %{{[a-z0-9]+}} = "host.slice"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: -9223372036854775808, 2>, static_strides = array<i64: 1, 2>}> : (!host.buf<?x4xf32>, index) -> !host.view<?x2xf32, strides = [4, 2]>
// GENERIC-NEXT: "host.for"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) ({
// GENERIC-NEXT: ^bb0(%{{[a-z0-9]+}}: index):
// GENERIC-NEXT: "host.elementwise"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{kind = "mul"}> : (!host.view<?x2xf32, strides = [4, 2]>, !host.view<?x2xf32, strides = [4, 2]>, !host.view<?x2xf32, strides = [4, 2]>) -> ()
// GENERIC-NEXT: }) : (index, index, index) -> ()
// GENERIC-NEXT: "host.if"(%{{[a-z0-9]+}}) ({
// GENERIC-NEXT: "host.dealloc"(%{{[a-z0-9]+}}) : (!host.buf<?x4xf32>) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (i1) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
"func.func"() <{function_type = (index, i1) -> (), sym_name = "generic"}> ({
^bb0(%n: index, %c: i1):
  %b = "host.alloc"(%n) <{persistent}> : (index) -> !host.buf<?x4xf32>
  %v = "host.slice"(%b, %n) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: -9223372036854775808, 2>, static_strides = array<i64: 1, 2>}> : (!host.buf<?x4xf32>, index) -> !host.view<?x2xf32, strides = [4, 2]>
  "host.for"(%n, %n, %n) ({
  ^bb0(%i: index):
    "host.elementwise"(%v, %v, %v) <{kind = "mul"}> : (!host.view<?x2xf32, strides = [4, 2]>, !host.view<?x2xf32, strides = [4, 2]>, !host.view<?x2xf32, strides = [4, 2]>) -> ()
  }) : (index, index, index) -> ()
  "host.if"(%c) ({
    "host.dealloc"(%b) : (!host.buf<?x4xf32>) -> ()
  }, {
  }) : (i1) -> ()
  "func.return"() : () -> ()
}) : () -> ()

// -----

// A linear layer accumulating into its output (beta = 1), as the ring reduce-scatter uses it.
// CHECK-LABEL: func.func @linear_accumulate
// CHECK:       host.linear %arg0, %arg1 into %arg2 accumulate : !host.buf<2x4xf32>, !host.buf<3x4xf32>, !host.buf<2x3xf32>
// GENERIC:     "host.linear"(%{{.*}}, %{{.*}}, %{{.*}}) <{accumulate, operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}> : (!host.buf<2x4xf32>, !host.buf<3x4xf32>, !host.buf<2x3xf32>) -> ()
func.func @linear_accumulate(%x: !host.buf<2x4xf32>, %w: !host.buf<3x4xf32>, %y: !host.buf<2x3xf32>) {
  host.linear %x, %w into %y accumulate : !host.buf<2x4xf32>, !host.buf<3x4xf32>, !host.buf<2x3xf32>
  return
}

// Layout views: broadcast (stride 0), permuted axes, a contiguous buffer reshaped.
// CHECK-LABEL: func.func @layout_views
// CHECK:       host.expand %arg0 dims = [0] : !host.buf<64xf32> -> !host.view<48x64xf32, strides = [0, 1]>
// CHECK:       host.permute %arg1 dims = [1, 0] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>
// CHECK:       host.reshape %arg1 : !host.buf<4x8xf32> -> !host.view<32xf32, strides = [1]>
// GENERIC:     "host.expand"(%{{.*}}) <{dims = array<i64: 0>}> : (!host.buf<64xf32>) -> !host.view<48x64xf32, strides = [0, 1]>
// GENERIC:     "host.permute"(%{{.*}}) <{dims = array<i64: 1, 0>}>
// GENERIC:     "host.reshape"(%{{.*}}) : (!host.buf<4x8xf32>) -> !host.view<32xf32, strides = [1]>
func.func @layout_views(%b: !host.buf<64xf32>, %m: !host.buf<4x8xf32>) -> (!host.view<48x64xf32, strides = [0, 1]>, !host.view<8x4xf32, strides = [1, 8]>, !host.view<32xf32, strides = [1]>) {
  %v = host.expand %b dims = [0] : !host.buf<64xf32> -> !host.view<48x64xf32, strides = [0, 1]>
  %t = host.permute %m dims = [1, 0] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>
  %f = host.reshape %m : !host.buf<4x8xf32> -> !host.view<32xf32, strides = [1]>
  return %v, %t, %f : !host.view<48x64xf32, strides = [0, 1]>, !host.view<8x4xf32, strides = [1, 8]>, !host.view<32xf32, strides = [1]>
}

// -----

// A stream chunk [1, 5] of a [1, 15] buffer is contiguous: the stride of its extent-1 axis is
// never stepped (fusion-to-host reshapes such chunks; fuser-lowerfuzz seed 803988).
// CHECK-LABEL: func.func @reshape_unit_axis_stride
// CHECK:       host.reshape %arg0 : !host.view<1x5xf32, strides = [15, 1]> -> !host.view<5xf32, strides = [1]>
func.func @reshape_unit_axis_stride(%c: !host.view<1x5xf32, strides = [15, 1]>) -> !host.view<5xf32, strides = [1]> {
  %f = host.reshape %c : !host.view<1x5xf32, strides = [15, 1]> -> !host.view<5xf32, strides = [1]>
  return %f : !host.view<5xf32, strides = [1]>
}
