// An op name in a registered dialect that does not exist.
func.func @f(%a: i32) -> i32 {
  %0 = "arith.foo"(%a) : (i32) -> i32
  return %0 : i32
}
