// The operand list and the function type disagree on the operand count.
%0 = "fz.a"() : () -> i32
"fz.b"(%0) : () -> ()
