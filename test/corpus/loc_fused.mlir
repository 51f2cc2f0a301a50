// Fused locations, with and without metadata.
"fz.a"() : () -> () loc(fused["a", "b"])
"fz.b"() : () -> () loc(fused["f.mlir":1:2, "g.mlir":3:4])
"fz.c"() : () -> () loc(fused<"x">["f.mlir":1:2, "y"])
"fz.d"() : () -> () loc(fused<{inlined = true}>["f.mlir":1:2, unknown])
"fz.e"() : () -> () loc(fused[fused["a", "b"], "c"])
"fz.f"() : () -> () loc(fused["only"])
"fz.g"() : () -> () loc(fused<#fz.meta<1>>["p.py":7:7, "q.py":8:8])
"fz.h"() : () -> () loc(fused["dup.mlir":1:1, "dup.mlir":1:1])
