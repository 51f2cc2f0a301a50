// Basic locations: unknown, file-line-col, op and block-argument locations.
"fz.a"() : () -> () loc(unknown)
"fz.b"() : () -> () loc("f.mlir":3:7)
"fz.c"() : () -> () loc("dir/other file.py":120:1)
%0 = "fz.d"() : () -> i32 loc("f.mlir":4:2)
"fz.e"(%0) ({
^bb0(%arg0: i32 loc("f.mlir":10:3), %arg1: index loc(unknown)):
  "fz.yield"() : () -> () loc("f.mlir":11:5)
}) : (i32) -> () loc("f.mlir":9:1)
"fz.f"() : () -> ()
"fz.g"() : () -> () loc("f.mlir":0:0)
"fz.h"() : () -> () loc("esc\"aped\n.mlir":1:2)
