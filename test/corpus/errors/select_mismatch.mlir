// arith.select with branches of different types (generic form).
func.func @f(%c: i1, %a: i32, %b: i64) -> i32 {
  %0 = "arith.select"(%c, %a, %b) : (i1, i32, i64) -> i32
  return %0 : i32
}
