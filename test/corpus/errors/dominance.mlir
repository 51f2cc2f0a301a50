// Use before def inside an SSACFG region (func body).
func.func @f() {
  %0 = "fz.use"(%1) : (i32) -> i32
  %1 = "fz.def"() : () -> i32
  return
}
