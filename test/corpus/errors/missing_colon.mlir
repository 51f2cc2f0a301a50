// A generic op without its ':' function type.
"fz.a"()
"fz.b"() : () -> ()
