// Predecessor comments: none, one, several, duplicates, self loops.
"fz.cfg"() ({
  %v = "fz.v"() : () -> i32
  "fz.switch"(%v) [^bb1, ^bb2, ^bb3, ^bb1] : (i32) -> ()
^bb1:
  "fz.br"() [^bb4] : () -> ()
^bb2:
  "fz.br"() [^bb4] : () -> ()
^bb3:
  "fz.cond"() [^bb4, ^bb3] : () -> ()
^bb4:
  "fz.br"() [^bb5] : () -> ()
^bb5:
  "fz.ret"() : () -> ()
^bb6:
  "fz.br"() [^bb4] : () -> ()
^bb7:
  "fz.br"() [^bb6] : () -> ()
^bb8:
  "fz.br"() [^bb1] : () -> ()
^bb9:
  "fz.br"() [^bb1] : () -> ()
^bb10:
  "fz.br"() [^bb1] : () -> ()
^bb11:
  "fz.br"() [^bb1] : () -> ()
}) : () -> ()
