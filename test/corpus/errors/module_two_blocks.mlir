// builtin.module bodies must have exactly one block.
"builtin.module"() ({
  "fz.br"() [^bb1] : () -> ()
^bb1:
  "fz.a"() : () -> ()
}) : () -> ()
