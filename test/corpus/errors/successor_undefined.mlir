// A successor that names a block which is never defined.
"fz.cfg"() ({
  "fz.br"() [^nowhere] : () -> ()
}) : () -> ()
