// Successors, block arguments, multiple blocks, // pred: comments.
"fz.cfg"() ({
^entry:
  %c = "fz.cond"() : () -> i1
  %v = "fz.val"() : () -> i32
  "fz.cond_br"(%c, %v) [^then, ^else] {operandSegmentSizes = array<i32: 1, 1, 0>} : (i1, i32) -> ()
^then:
  "fz.br"(%v) [^join] : (i32) -> ()
^else:
  %w = "fz.other"() : () -> i32
  "fz.br"(%w) [^join] : (i32) -> ()
^join(%x: i32):
  "fz.switch"(%x) [^a, ^b, ^a] : (i32) -> ()
^a:
  "fz.ret"() : () -> ()
^b:
  "fz.ret"(%x) : (i32) -> ()
}) : () -> ()
"fz.loop"() ({
  "fz.br"() [^body] : () -> ()
^body:
  "fz.br"() [^body] : () -> ()
}) : () -> ()
"fz.dead"() ({
  "fz.ret"() : () -> ()
^unreachable:
  "fz.ret"() : () -> ()
^unreachable2(%u: index):
  "fz.br"(%u) [^unreachable2] : (index) -> ()
}) : () -> ()
