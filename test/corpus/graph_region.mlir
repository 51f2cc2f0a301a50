// Regions of unregistered ops may be graph regions: uses before definitions.
"fz.graph"() ({
  %b = "fz.use"(%a) : (i32) -> i32
  %a = "fz.def"(%b) : (i32) -> i32
  "fz.cycle"(%c, %a) : (i64, i32) -> ()
  %c = "fz.late"() : () -> i64
}) : () -> ()
%y = "fz.top_use"(%x) : (f32) -> f32
%x = "fz.top_def"() : () -> f32
"fz.self"() ({
  %s = "fz.loop"(%s) : (index) -> index
}) : () -> ()
