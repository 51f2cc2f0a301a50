// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @reduce
// CHECK-NEXT: host.reduce max %arg0 into %arg1 dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>
// CHECK-NEXT: host.reduce min %arg2 into %arg3 dims = [0, 1] : !host.buf<4x8xi32>, !host.buf<i32>
// CHECK-NEXT: host.reduce mean %arg0 into %arg1 dims = [1] count = 16 : !host.buf<4x8xf32>, !host.buf<4xf32>
// CHECK-NEXT: host.reduce var %arg0 into %arg1 dims = [1] correction = 0 {note} : !host.buf<4x8xf32>, !host.buf<4xf32>
// GENERIC: "host.reduce"(%arg0, %arg1) <{dims = array<i64: 1>, kind = "max"}> : (!host.buf<4x8xf32>, !host.buf<4xf32>) -> ()
// GENERIC: "host.reduce"(%arg2, %arg3) <{dims = array<i64: 0, 1>, kind = "min"}> : (!host.buf<4x8xi32>, !host.buf<i32>) -> ()
// GENERIC: "host.reduce"(%arg0, %arg1) <{count = 16 : i64, dims = array<i64: 1>, kind = "mean"}> : (!host.buf<4x8xf32>, !host.buf<4xf32>) -> ()
// GENERIC: "host.reduce"(%arg0, %arg1) <{correction = 0 : i64, dims = array<i64: 1>, kind = "var"}> {note} : (!host.buf<4x8xf32>, !host.buf<4xf32>) -> ()
func.func @reduce(%a: !host.buf<4x8xf32>, %b: !host.buf<4xf32>, %i: !host.buf<4x8xi32>, %j: !host.buf<i32>) {
  host.reduce max %a into %b dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>
  host.reduce min %i into %j dims = [0, 1] : !host.buf<4x8xi32>, !host.buf<i32>
  host.reduce mean %a into %b dims = [1] count = 16 : !host.buf<4x8xf32>, !host.buf<4xf32>
  "host.reduce"(%a, %b) <{correction = 0 : i64, dims = array<i64: 1>, kind = "var"}> {note} : (!host.buf<4x8xf32>, !host.buf<4xf32>) -> ()
  return
}
