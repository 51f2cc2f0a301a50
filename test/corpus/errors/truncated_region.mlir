// The file ends inside a region.
"fz.r"() ({
  "fz.a"() : () -> ()
