// func.call to defined and declared functions.
func.func private @ext(i32) -> i32
func.func private @ext_void(f32)
func.func private @ext_multi() -> (i1, i8)
func.func @caller(%x: i32) -> i32 {
  %0 = func.call @ext(%x) : (i32) -> i32
  %1 = call @ext(%0) : (i32) -> i32
  %f = "fz.f"() : () -> f32
  call @ext_void(%f) : (f32) -> ()
  %2:2 = call @ext_multi() : () -> (i1, i8)
  "fz.use"(%2#0, %2#1) : (i1, i8) -> ()
  %3 = call @caller(%1) {fz.tail} : (i32) -> i32
  %4 = "func.call"(%3) <{callee = @ext}> : (i32) -> i32
  return %4 : i32
}
