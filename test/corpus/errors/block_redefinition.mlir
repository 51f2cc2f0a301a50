// The same block label is defined twice.
"fz.cfg"() ({
  "fz.br"() [^bb1] : () -> ()
^bb1:
  "fz.ret"() : () -> ()
^bb1:
  "fz.ret"() : () -> ()
}) : () -> ()
