// A verifier error at a name location without a file position.
func.func @f(%a: i32, %b: i64) {
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32 loc("just_a_name")
  return
}
