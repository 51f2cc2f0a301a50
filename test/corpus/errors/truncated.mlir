// The file ends in the middle of an operation.
%0 = "fz.a"() : () -> i32
"fz.b"(%0) {k = [1, 2