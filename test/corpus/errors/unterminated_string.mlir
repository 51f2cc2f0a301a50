// A string literal that is never closed.
"fz.a"() {s = "never closed} : () -> ()
"fz.b"() : () -> ()
