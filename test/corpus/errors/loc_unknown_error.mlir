// A verifier error at an unknown location.
func.func @f(%a: i32, %b: i64) {
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32 loc(unknown)
  return
}
