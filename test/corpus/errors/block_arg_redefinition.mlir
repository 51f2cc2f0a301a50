// A block argument name that shadows an existing value in the same region.
"fz.cfg"() ({
^bb0(%x: i32):
  "fz.br"(%x) [^bb1] : (i32) -> ()
^bb1(%x: i32):
  "fz.ret"() : () -> ()
}) : () -> ()
