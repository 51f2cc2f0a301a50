// func.return operand types must match the function result types.
func.func @f(%a: i64) -> i32 {
  return %a : i64
}
