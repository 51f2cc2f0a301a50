// func.return must return as many values as the function type has results.
func.func @f(%a: i32) -> (i32, i32) {
  return %a : i32
}
