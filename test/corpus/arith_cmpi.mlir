// arith.cmpi: every predicate, integer, index and vector operands.
func.func @cmp(%a: i32, %b: i32, %i: index, %v: vector<2xi8>) -> i1 {
  %0 = arith.cmpi eq, %a, %b : i32
  %1 = arith.cmpi ne, %a, %b : i32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sle, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi sge, %a, %b : i32
  %6 = arith.cmpi ult, %a, %b : i32
  %7 = arith.cmpi ule, %a, %b : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  %9 = arith.cmpi uge, %a, %b : i32
  %10 = arith.cmpi eq, %i, %i : index
  %11 = arith.cmpi slt, %v, %v : vector<2xi8>
  %12 = "arith.cmpi"(%a, %b) <{predicate = 4 : i64}> : (i32, i32) -> i1
  %13 = arith.cmpi ne, %0, %1 : i1
  "fz.use"(%2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12) : (i1, i1, i1, i1, i1, i1, i1, i1, i1, vector<2xi1>, i1) -> ()
  return %13 : i1
}
