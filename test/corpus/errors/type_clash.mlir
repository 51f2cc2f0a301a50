// A forward-referenced value is used with two different types.
"fz.graph"() ({
  "fz.use"(%v) : (i32) -> ()
  "fz.use"(%v) : (i64) -> ()
  %v = "fz.def"() : () -> i32
}) : () -> ()
