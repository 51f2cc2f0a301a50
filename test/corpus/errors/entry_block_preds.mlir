// The entry block of a region may not have predecessors.
"fz.loop"() ({
^bb0:
  "fz.br"() [^bb0] : () -> ()
}) : () -> ()
