// A single explicit module is not wrapped again.
module {
  %0 = "fz.a"() : () -> i32
  "fz.b"(%0) : (i32) -> ()
}
