// Locations on non-entry block arguments and successor operands.
"fz.cfg"() ({
^bb0(%a: i32 loc("b.mlir":1:1)):
  "fz.br"(%a, %a) [^bb1] : (i32, i32) -> () loc("b.mlir":2:2)
^bb1(%b: i32 loc("b.mlir":3:3), %c: i32 loc(unknown)):
  "fz.ret"(%b) : (i32) -> () loc("b.mlir":4:4)
^bb2(%d: f32 loc(fused["b.mlir":5:5, "d"])):
  "fz.ret"() : () -> ()
}) : () -> () loc("b.mlir":0:1)
"fz.shared"() : () -> () loc("b.mlir":1:1)
