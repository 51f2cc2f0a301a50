// arith.constant whose value type differs from the result type.
func.func @f() -> i32 {
  %0 = arith.constant 1.0 : i32
  return %0 : i32
}
