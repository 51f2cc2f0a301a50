// A value defined in one branch is used in a block it does not dominate.
func.func @f(%c: i1) -> i32 {
  "fz.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  %v = "fz.def"() : () -> i32
  "fz.br"() [^bb3] : () -> ()
^bb2:
  "fz.br"() [^bb3] : () -> ()
^bb3:
  return %v : i32
}
