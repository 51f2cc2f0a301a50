// 2 does not fit in i1.
"fz.a"() {v = 2 : i1} : () -> ()
