// The "func." prefix is elided inside func.func bodies (default dialect), not at module level.
func.func private @g()
func.call @g() : () -> ()
func.func @f() {
  "fz.r"() ({
    %c = arith.constant 1 : i32
    "fz.x"() ({
      %d = arith.constant 1 : i32
    }) : () -> ()
  }) : () -> ()
  call @g() : () -> ()
  return
}
