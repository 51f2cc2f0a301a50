// Every reference to an undefined block of a region is reported.
"fz.r"() ({
  "fz.br"() [^bb5] : () -> ()
^bb1:
  "fz.br"() [^bb7, ^bb6] : () -> ()
}) : () -> ()
