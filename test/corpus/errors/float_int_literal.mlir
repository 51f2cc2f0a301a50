// A decimal integer literal used for a float attribute.
"fz.a"() {v = 1 : f32} : () -> ()
