// Unregistered dialect ops are rejected without --allow-unregistered-dialect.
%0 = "fz.a"() : () -> i32
