// The fusion examples parse, verify and round-trip (custom and generic forms).
// RUN: fuser-opt %S/../../examples/stream_parallel_matmul.mlir | FileCheck %s --check-prefix=SPM
// RUN: fuser-opt %S/../../examples/stream_parallel_matmul.mlir --mlir-print-op-generic | fuser-opt | FileCheck %s --check-prefix=SPM
// RUN: fuser-opt %S/../../examples/row_parallel_linear.mlir | FileCheck %s --check-prefix=ROW
// RUN: fuser-opt %S/../../examples/row_parallel_linear.mlir --mlir-print-op-generic | fuser-opt | FileCheck %s --check-prefix=ROW
// RUN: fuser-opt %S/../../examples/column_parallel_linear.mlir | FileCheck %s --check-prefix=COL
// RUN: fuser-opt %S/../../examples/column_parallel_linear.mlir --mlir-print-op-generic | fuser-opt | FileCheck %s --check-prefix=COL

// SPM:      fusion.mesh @tp = [0]
// SPM:      fusion.matmul %arg0, %arg1 : (tensor<5x7xf32, #fusion.shard<@tp, {{\[\[}}], []]>>, tensor<7x6xf32, #fusion.shard<@tp, {{\[\[}}], []]>>) -> tensor<5x6xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(3)]]>>

// ROW:      fusion.mesh @tp = [0, 1, 2, 3]
// ROW:      fusion.linear %arg0, %arg1 : (tensor<48x256xbf16, #fusion.shard<@tp, {{\[\[}}Stream(3)], [DIDx]]>>, tensor<64x256xbf16, #fusion.shard<@tp, {{\[\[}}], [DIDx]]>>) -> tensor<48x64xbf16, #fusion.shard<@tp, {{\[\[}}Stream(3)], []]>>

// COL:      fusion.mesh @tp = [0, 1, 2, 3]
// COL:      %[[G:.*]] = fusion.set %arg0 : (tensor<64x128xbf16, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<64x128xbf16, #fusion.shard<@tp, {{\[\[}}Stream(4)], []]>>
// COL-NEXT: fusion.linear %[[G]], %arg1 : (tensor<64x128xbf16, #fusion.shard<@tp, {{\[\[}}Stream(4)], []]>>, tensor<96x128xbf16, #fusion.shard<@tp, {{\[\[}}], []]>>) -> tensor<64x96xbf16, #fusion.shard<@tp, {{\[\[}}Stream(4)], []]>>
