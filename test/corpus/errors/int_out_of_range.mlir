// Integer literal does not fit the attribute type.
"fz.a"() {v = 256 : i8} : () -> ()
