// A note at another location shows its own source line.
func.func @f() {
  %0 = "fz.def"() : () -> i32
  return
}
func.func @f() {
  return
}
