// The error line contains non-ASCII bytes: columns count bytes and no caret line is printed.
"fz.b"() {s = "ééé", t = 1 : i32, u = %x} : () -> ()
