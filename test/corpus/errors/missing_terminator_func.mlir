// A func.func body that ends with a non-terminator registered op.
func.func @f() {
  %0 = arith.constant 0 : i32
}
