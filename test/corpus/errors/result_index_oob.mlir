// Result index out of range in a %x#N use.
%0:2 = "fz.a"() : () -> (i32, i32)
"fz.b"(%0#2) : (i32) -> ()
