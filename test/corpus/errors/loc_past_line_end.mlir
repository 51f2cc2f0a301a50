// A location whose column lies past the end of its line shows no source line.
func.func @f(%a: i32, %b: i64) {
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32 loc("loc_past_line_end.mlir":2:200)
  return
}
