// Duplicate keys in an attribute dictionary.
"fz.a"() {dup = 1 : i32, dup = 2 : i32} : () -> ()
