// Block labels: entry label elision, numbering per region, names discarded.
"fz.f"() ({
^start:
  "fz.br"() [^next] : () -> ()
^next:
  "fz.br"() [^last] : () -> ()
^last:
  "fz.ret"() : () -> ()
}) : () -> ()
"fz.g"() ({
^entry(%a: i32, %b: i32):
  "fz.br"(%a) [^bb7] : (i32) -> ()
^bb7(%c: i32):
  "fz.inner"() ({
  ^x:
    "fz.br"() [^y] : () -> ()
  ^y:
    "fz.ret"() : () -> ()
  }) : () -> ()
  "fz.ret"(%c) : (i32) -> ()
}) : () -> ()
"fz.h"() ({
^only:
  "fz.ret"() : () -> ()
}) : () -> ()
"fz.j"() ({
  "fz.cond"() [^bb2, ^bb1] : () -> ()
^bb1:
  "fz.ret"() : () -> ()
^bb2:
  "fz.ret"() : () -> ()
}) : () -> ()
func.func @cfg_no_args() {
  "fz.br"() [^bb1] : () -> ()
^bb1:
  return
}
func.func @cfg_args(%a: i32) {
  "fz.br"(%a) [^bb1] : (i32) -> ()
^bb1(%b: i32):
  return
}
