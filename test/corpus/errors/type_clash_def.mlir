// A value is used with a type that differs from its definition.
%v = "fz.def"() : () -> i32
"fz.use"(%v) : (f32) -> ()
