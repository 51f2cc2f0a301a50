// arith.index_cast between two non-index integer types.
func.func @f(%a: i32) -> i64 {
  %0 = arith.index_cast %a : i32 to i64
  return %0 : i64
}
