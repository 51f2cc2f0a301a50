// A carriage return ends the shown source line.
"fz.a"() : () -> ()"fz.b"(%q) : (i32) -> ()
