// func.func: definitions, declarations, visibility.
func.func @empty() {
  return
}
func.func @identity(%x: i32) -> i32 {
  return %x : i32
}
func.func @two_results(%a: i32, %b: f32) -> (i32, f32) {
  func.return %a, %b : i32, f32
}
func.func private @decl(i32, tensor<4xf32>) -> index
func.func private @decl_noargs()
func.func nested @nested_vis() {
  return
}
func.func public @explicit_public() {
  return
}
func.func @with_body(%arg0: index) -> index {
  %0 = "fz.op"(%arg0) : (index) -> index
  %1 = "fz.op"(%0) : (index) -> index
  return %1 : index
}
func.func @fn_result() -> ((i32) -> i32) {
  %f = "fz.make_fn"() : () -> ((i32) -> i32)
  return %f : (i32) -> i32
}
func.func @multi_block(%c: i1) -> i32 {
  "fz.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  %a = "fz.one"() : () -> i32
  return %a : i32
^bb2:
  %b = "fz.two"() : () -> i32
  return %b : i32
}
func.func @"quoted name"() {
  return
}
