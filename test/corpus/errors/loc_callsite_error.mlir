// A verifier error at a call-site location: the callee's position, then "called from".
func.func @f(%a: i32, %b: i64) {
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32 loc(callsite("inner"("lib.mlir":7:3) at callsite("loc_callsite_error.mlir":2:1 at "main.mlir":9:5)))
  return
}
