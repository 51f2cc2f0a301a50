// RUN: fuser-opt --canonicalize='region-simplify=aggressive' %s | FileCheck %s

// Merging the identical case blocks gives the merged block an argument, appended to every
// branch; the switch then passes one constant for two successors side by side. Inserting an
// operand before two uses of one value once corrupted its use list (a later canonicalize
// iteration panicked on a stale handle). Expected output from mlir-opt-19.

// CHECK-LABEL: func.func @f(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:    %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    cf.switch %arg0 : i32, [
// CHECK-NEXT:      default: ^bb1(%c1_i32 : i32),
// CHECK-NEXT:      1: ^bb1(%c2_i32 : i32),
// CHECK-NEXT:      2: ^bb2,
// CHECK-NEXT:      3: ^bb1(%c3_i32 : i32),
// CHECK-NEXT:      4: ^bb1(%c3_i32 : i32)
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb1(%0: i32):  // 4 preds: ^bb0, ^bb0, ^bb0, ^bb0
// CHECK-NEXT:    %1 = arith.addi %arg1, %0 : i32
// CHECK-NEXT:    %2 = arith.muli %1, %arg1 : i32
// CHECK-NEXT:    cf.br ^bb3(%2 : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    %3 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:    cf.br ^bb3(%3 : i32)
// CHECK-NEXT:  ^bb3(%4: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    return %4 : i32
// CHECK-NEXT:  }
func.func @f(%sel: i32, %x: i32) -> i32 {
  cf.switch %sel : i32, [
    default: ^bb6,
    0: ^bb1, 1: ^bb2, 2: ^bb3, 3: ^bb4, 4: ^bb5
  ]
^bb1:
  %c0 = arith.constant 1 : i32
  %a0 = arith.addi %x, %c0 : i32
  %m0 = arith.muli %a0, %x : i32
  cf.br ^exit(%m0 : i32)
^bb2:
  %c1 = arith.constant 2 : i32
  %a1 = arith.addi %x, %c1 : i32
  %m1 = arith.muli %a1, %x : i32
  cf.br ^exit(%m1 : i32)
^bb3:
  %c2 = arith.constant 0 : i32
  %a2 = arith.addi %x, %c2 : i32
  %m2 = arith.muli %a2, %x : i32
  cf.br ^exit(%m2 : i32)
^bb4:
  %c3 = arith.constant 3 : i32
  %a3 = arith.addi %x, %c3 : i32
  %m3 = arith.muli %a3, %x : i32
  cf.br ^exit(%m3 : i32)
^bb5:
  %c4 = arith.constant 3 : i32
  %a4 = arith.addi %x, %c4 : i32
  %m4 = arith.muli %a4, %x : i32
  cf.br ^exit(%m4 : i32)
^bb6:
  %c5 = arith.constant 1 : i32
  %a5 = arith.addi %x, %c5 : i32
  %m5 = arith.muli %a5, %x : i32
  cf.br ^exit(%m5 : i32)
^exit(%r: i32):
  return %r : i32
}
