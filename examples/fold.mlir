// A small program for canonicalize and cse: constants fold, `x + 0` and `x * 1` disappear,
// the duplicated multiplication is merged, and the comparison of a value with itself folds.
func.func @fold(%x: i32, %i: index) -> (i32, i1, index) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %five = arith.addi %c2, %c3 : i32
  %a = arith.addi %x, %c0 : i32
  %b = arith.muli %a, %c1 : i32
  %m1 = arith.muli %b, %five : i32
  %m2 = arith.muli %b, %five : i32
  %s = arith.addi %m1, %m2 : i32
  %t = arith.cmpi eq, %s, %s : i32
  %k = arith.index_cast %c3 : i32 to index
  %j = arith.addi %i, %k : index
  return %s, %t, %j : i32, i1, index
}
