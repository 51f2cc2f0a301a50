// Use of an SSA value that is never defined.
%0 = "fz.a"() : () -> i32
"fz.b"(%0, %missing) : (i32, i32) -> ()
