// A non-entry block with no operations.
"fz.r"() ({
  "fz.br"() [^bb1] : () -> ()
^bb1:
}) : () -> ()
