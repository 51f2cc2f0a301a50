// The same SSA name is defined twice.
%x = "fz.a"() : () -> i32
%x = "fz.b"() : () -> i32
