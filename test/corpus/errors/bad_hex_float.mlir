// A hexadecimal float literal with too many bits for the type.
"fz.a"() {v = 0x7FC000000 : f32} : () -> ()
