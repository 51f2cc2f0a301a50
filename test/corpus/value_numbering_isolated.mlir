// Value numbering continues from the parent region even into func.func bodies.
%t = "fz.top"() : () -> i32
func.func @f(%a: i32) -> i32 {
  %0 = "fz.x"(%a) : (i32) -> i32
  return %0 : i32
}
"fz.r"() ({
^bb0(%b: i32):
  %1 = "fz.x"(%t) : (i32) -> i32
}) : () -> ()
