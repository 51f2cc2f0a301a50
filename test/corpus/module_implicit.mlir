// Ops at top level are wrapped in an implicit module.
%0 = "fz.a"() : () -> i32
"fz.b"(%0) : (i32) -> ()
func.func @f() {
  return
}
