// An unknown overflow flag.
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a overflow<wrap> : i32
  return %0 : i32
}
