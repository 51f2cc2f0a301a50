// RUN: fuser-opt --canonicalize='region-simplify=aggressive' %s | FileCheck %s

// mlir-opt-19 reports a round of redundant-argument dropping as a change only when the last
// block it visits changed, so the greedy driver stops early here and leaves a switch on a
// constant unfolded. fuser reports rounds the same way, so the output is identical
// (found by tools/mlirgen/cfg_fuzz.py, seed 20237). Expected output from mlir-opt-19.

// CHECK:   func.func private @side(i32)
// CHECK-NEXT:   func.func @f(%arg0: i32, %arg1: i32, %arg2: i1) -> i32 {
// CHECK-NEXT:     %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     cf.br ^bb1
// CHECK-NEXT:   ^bb1:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:     call @side(%c2_i32) : (i32) -> ()
// CHECK-NEXT:     cf.switch %c1_i32 : i32, [
// CHECK-NEXT:       default: ^bb3(%c1_i32 : i32),
// CHECK-NEXT:       4294967294: ^bb2,
// CHECK-NEXT:       0: ^bb1,
// CHECK-NEXT:       3: ^bb3(%c2_i32 : i32)
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb2:  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:     call @side(%c0_i32) : (i32) -> ()
// CHECK-NEXT:     cf.br ^bb2
// CHECK-NEXT:   ^bb3(%0: i32):  // 2 preds: ^bb1, ^bb1
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }

func.func private @side(i32)
func.func @f(%x: i32, %y: i32, %p: i1) -> i32 {
  %c1 = arith.constant 0 : i32
  %c2 = arith.constant 1 : i32
  %c3 = arith.constant false
  %c4 = arith.constant 1 : i32
  %v5 = arith.addi %c1, %c4 : i32
  cf.br ^bb2(%y, %v5 : i32, i32)
^bb1(%a6: i32):
  %c7 = arith.constant 2 : i32
  %v8 = arith.cmpi sge, %c2, %c7 : i32
  %c9 = arith.constant 0 : i32
  %v10 = arith.addi %c1, %c9 : i32
  %c11 = arith.constant 2 : i32
  %v12 = arith.select %p, %c1, %c11 : i32
  cf.br ^bb10
^bb2(%a13: i32, %a14: i32):
  %c15 = arith.constant 2 : i32
  %v16 = arith.cmpi ult, %c2, %c15 : i32
  %c17 = arith.constant 2 : i32
  %v18 = arith.addi %x, %c17 : i32
  %c19 = arith.constant 2 : i32
  %v20 = arith.select %c3, %a14, %c19 : i32
  func.call @side(%v20) : (i32) -> ()
  cf.switch %a14 : i32, [
    default: ^bb6(%c2 : i32),
    -2: ^bb9(%v18 : i32),
    0: ^bb2(%y, %c2 : i32, i32),
    3: ^bb6(%v20 : i32),
    5: ^bb6(%c2 : i32)
  ]
^bb3:
  %c21 = arith.constant 0 : i32
  %v22 = arith.cmpi ult, %x, %c21 : i32
  %c23 = arith.constant 1 : i32
  %v24 = arith.addi %c2, %c23 : i32
  %c25 = arith.constant 2 : i32
  %v26 = arith.select %p, %y, %c25 : i32
  func.call @side(%c21) : (i32) -> ()
  cf.br ^bb3
^bb4(%a27: i32):
  return %c1 : i32
^bb5(%a28: i32):
  %c29 = arith.constant 1 : i32
  %v30 = arith.addi %c1, %c29 : i32
  func.call @side(%c1) : (i32) -> ()
  cf.cond_br %c3, ^bb1(%c29 : i32), ^bb6(%c29 : i32)
^bb6(%a31: i32):
  return %a31 : i32
^bb7(%a32: i32, %a33: i32):
  %c34 = arith.constant 1 : i32
  %v35 = arith.cmpi sge, %c1, %c34 : i32
  %c36 = arith.constant 0 : i32
  %v37 = arith.addi %y, %c36 : i32
  %c38 = arith.constant 2 : i32
  %v39 = arith.select %p, %y, %c38 : i32
  func.call @side(%c2) : (i32) -> ()
  cf.cond_br %c3, ^bb3, ^bb3
^bb8:
  %c40 = arith.constant 0 : i32
  %v41 = arith.addi %c1, %c40 : i32
  func.call @side(%x) : (i32) -> ()
  cf.switch %c40 : i32, [
    default: ^bb10,
    -2: ^bb10,
    0: ^bb4(%x : i32),
    2: ^bb4(%v41 : i32),
    6: ^bb1(%c2 : i32),
    8: ^bb3
  ]
^bb9(%a42: i32):
  %c43 = arith.constant 0 : i32
  %v44 = arith.addi %y, %c43 : i32
  func.call @side(%c1) : (i32) -> ()
  cf.br ^bb3
^bb10:
  %c45 = arith.constant 5 : i32
  %v46 = arith.cmpi sge, %y, %c45 : i32
  %c47 = arith.constant 0 : i32
  %v48 = arith.addi %y, %c47 : i32
  %c49 = arith.constant 1 : i32
  %v50 = arith.select %p, %x, %c49 : i32
  func.call @side(%c2) : (i32) -> ()
  cf.switch %c47 : i32, [
    default: ^bb6(%c45 : i32),
    -1: ^bb1(%y : i32),
    2: ^bb4(%y : i32),
    5: ^bb8
  ]
}
