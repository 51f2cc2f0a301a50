// func.call whose operand types do not match the callee.
func.func private @g(i32) -> i32
func.func @f(%a: i64) -> i32 {
  %0 = call @g(%a) : (i64) -> i32
  return %0 : i32
}
