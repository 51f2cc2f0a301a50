// Location aliases defined in the input.
#loc0 = loc("defs.mlir":1:1)
#loc_a = loc("a.py":10:4)
#call = loc(callsite(#loc_a at "main.py":2:2))
"fz.a"() : () -> () loc(#loc0)
"fz.b"() : () -> () loc(#loc_a)
"fz.c"() : () -> () loc(#call)
"fz.d"() : () -> () loc(#loc_a)
"fz.e"() : () -> () loc(fused[#loc0, #loc_a])
