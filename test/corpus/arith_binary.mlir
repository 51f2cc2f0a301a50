// arith integer binary ops on integers and index.
func.func @binary(%a: i32, %b: i32, %i: index, %j: index) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %0, %b : i32
  %2 = arith.muli %1, %a : i32
  %3 = arith.divsi %2, %b : i32
  %4 = arith.divui %3, %b : i32
  %5 = arith.remsi %4, %a : i32
  %6 = arith.remui %5, %a : i32
  %7 = arith.addi %i, %j : index
  %8 = arith.subi %7, %i : index
  %9 = arith.muli %8, %8 : index
  %10 = arith.divsi %9, %j : index
  %11 = arith.divui %10, %j : index
  %12 = arith.remsi %11, %i : index
  %13 = arith.remui %12, %i : index
  "fz.use"(%13) : (index) -> ()
  return %6 : i32
}
func.func @wide(%x: i128, %y: i1, %z: i8) -> (i128, i1, i8) {
  %0 = arith.addi %x, %x : i128
  %1 = arith.muli %y, %y : i1
  %2 = arith.subi %z, %z : i8
  return %0, %1, %2 : i128, i1, i8
}
func.func @vectors(%v: vector<4xi32>, %t: tensor<2x?xi64>) -> (vector<4xi32>, tensor<2x?xi64>) {
  %0 = arith.addi %v, %v : vector<4xi32>
  %1 = arith.muli %t, %t : tensor<2x?xi64>
  return %0, %1 : vector<4xi32>, tensor<2x?xi64>
}
func.func @with_attrs(%a: i32) -> i32 {
  %0 = arith.addi %a, %a {fz.tag = "t"} : i32
  %1 = "arith.subi"(%0, %a) : (i32, i32) -> i32
  return %1 : i32
}
