// A nested pipeline over several functions gives the same output (and the same IR dumps, in
// op order) whether it runs in parallel or sequentially.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' -o %t.par
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-disable-threading -o %t.seq
// RUN: diff %t.par %t.seq
// RUN: FileCheck %s --input-file=%t.par
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s --check-prefix=DUMPS
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-print-ir-after-all --mlir-disable-threading -o %t 2>&1 | FileCheck %s --check-prefix=DUMPS

// CHECK-LABEL: func.func @a
// CHECK-NEXT:    %[[X:.*]] = arith.muli %arg0, %arg0
// CHECK-NEXT:    return %[[X]]
// CHECK-LABEL: func.func @b
// CHECK-NEXT:    return %arg0
// CHECK-LABEL: func.func @c
// CHECK-NEXT:    %[[X:.*]] = arith.addi %arg0, %arg0
// CHECK-NEXT:    %[[Y:.*]] = arith.muli %[[X]], %[[X]]
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @d
// CHECK-NEXT:    arith.constant 7
// CHECK-NEXT:    return

// DUMPS:      IR Dump After CSE (cse)
// DUMPS-NEXT: func.func @a
// DUMPS:      IR Dump After Canonicalizer (canonicalize)
// DUMPS-NEXT: func.func @a
// DUMPS:      IR Dump After CSE (cse)
// DUMPS-NEXT: func.func @b
// DUMPS:      IR Dump After Canonicalizer (canonicalize)
// DUMPS-NEXT: func.func @b
// DUMPS:      IR Dump After CSE (cse)
// DUMPS-NEXT: func.func @c
// DUMPS:      IR Dump After Canonicalizer (canonicalize)
// DUMPS-NEXT: func.func @c
// DUMPS:      IR Dump After CSE (cse)
// DUMPS-NEXT: func.func @d
// DUMPS:      IR Dump After Canonicalizer (canonicalize)
// DUMPS-NEXT: func.func @d

func.func @a(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %0, %x : i32
  return %1 : i32
}
func.func @b(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.muli %x, %c1 : i32
  return %0 : i32
}
func.func @c(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  %1 = arith.addi %x, %x : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
func.func @d() -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %c3, %c4 : i32
  return %0 : i32
}
