// Locations on func.func arguments, results of arith ops and nested regions.
func.func @f(%a: i32 loc("args.mlir":1:10), %b: i32 loc("args.mlir":1:20)) -> i32 {
  %0 = arith.addi %a, %b : i32 loc("body.mlir":2:3)
  %c1 = arith.constant 1 : i32 loc(fused["body.mlir":3:3, "const"])
  %1 = arith.muli %0, %c1 : i32 loc("mul"("body.mlir":4:3))
  "fz.region"() ({
  ^bb0(%x: index loc("inner.mlir":5:5)):
    "fz.end"() : () -> () loc("inner.mlir":6:6)
  }) : () -> () loc("body.mlir":5:3)
  return %1 : i32 loc("body.mlir":7:3)
} loc("defs.mlir":1:1)
func.func private @decl(i32) loc("defs.mlir":9:1)
func.func @noloc(%z: f32) {
  return
}
