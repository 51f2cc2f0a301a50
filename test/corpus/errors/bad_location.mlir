// A malformed location.
"fz.a"() : () -> () loc("f.mlir":1)
