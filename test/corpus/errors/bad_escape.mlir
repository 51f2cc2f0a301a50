// An invalid escape sequence in a string literal.
"fz.a"() {s = "bad \q escape"} : () -> ()
