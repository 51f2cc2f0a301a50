// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// host.linear's GEMM epilogues: a residual (cuBLASLt's C with beta = 1) and the gelu_tanh
// activation, in custom form, generic form (operandSegmentSizes: x, w, bias, residual, y) and
// the generic form read back. The forms without them print as before.

// CHECK-LABEL: func.func @epilogues
// CHECK-NEXT: host.linear %arg0, %arg1, %arg2 into %arg3 epilogue = gelu_tanh : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>
// CHECK-NEXT: host.linear %arg0, %arg1 into %arg3 epilogue = gelu_tanh {test.tag} : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<4x16xbf16>
// CHECK-NEXT: host.linear %arg0, %arg1, %arg2 into %arg3 residual %arg4 : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>, !host.buf<4x16xbf16>
// CHECK-NEXT: host.linear %arg5, %arg1 into %arg6 residual %arg7 : !host.view<2x4x8xbf16, strides = [64, 8, 1]>, !host.buf<16x8xbf16>, !host.buf<2x4x16xbf16>, !host.view<2x4x16xbf16, strides = [128, 16, 1]>
// CHECK-NEXT: host.linear %arg0, %arg1, %arg2 into %arg3 : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>
// CHECK-NEXT: return
// GENERIC-LABEL: sym_name = "epilogues"
// GENERIC: "host.linear"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{epilogue = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (!host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>) -> ()
// GENERIC-NEXT: "host.linear"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{epilogue = "gelu_tanh", operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}> {test.tag} : (!host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<4x16xbf16>) -> ()
// GENERIC-NEXT: "host.linear"(%arg0, %arg1, %arg2, %arg4, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (!host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>, !host.buf<4x16xbf16>) -> ()
// GENERIC-NEXT: "host.linear"(%arg5, %arg1, %arg7, %arg6) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1>}> : (!host.view<2x4x8xbf16, strides = [64, 8, 1]>, !host.buf<16x8xbf16>, !host.view<2x4x16xbf16, strides = [128, 16, 1]>, !host.buf<2x4x16xbf16>) -> ()
// GENERIC-NEXT: "host.linear"(%arg0, %arg1, %arg2, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (!host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>) -> ()
func.func @epilogues(%x: !host.buf<4x8xbf16>, %w: !host.buf<16x8xbf16>, %b: !host.buf<16xbf16>, %y: !host.buf<4x16xbf16>,
                     %r: !host.buf<4x16xbf16>, %xv: !host.view<2x4x8xbf16, strides = [64, 8, 1]>,
                     %y3: !host.buf<2x4x16xbf16>, %rv: !host.view<2x4x16xbf16, strides = [128, 16, 1]>) {
  host.linear %x, %w, %b into %y epilogue = gelu_tanh : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>
  host.linear %x, %w into %y epilogue = gelu_tanh {test.tag} : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<4x16xbf16>
  host.linear %x, %w, %b into %y residual %r : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>, !host.buf<4x16xbf16>
  host.linear %xv, %w into %y3 residual %rv : !host.view<2x4x8xbf16, strides = [64, 8, 1]>, !host.buf<16x8xbf16>, !host.buf<2x4x16xbf16>, !host.view<2x4x16xbf16, strides = [128, 16, 1]>
  // The generic spelling of the epilogue reads back into the custom form.
  "host.linear"(%x, %w, %b, %y) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (!host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>) -> ()
  return
}
