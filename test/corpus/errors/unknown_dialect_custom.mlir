// Custom syntax for an op of an unknown dialect.
%0 = "fz.a"() : () -> i32
%1 = fz.bad %0 : i32
