// The result list names two values but the type has one result.
%0:2 = "fz.a"() : () -> i32
