// Integer attributes of many types.
"fz.i"() {a = 0 : i32, b = 1 : i64, c = -1 : i64, d = 42 : i8, e = -128 : i8, f = 255 : i8, g = 7 : index, h = -7 : index} : () -> ()
"fz.j"() {plain = 5, neg = -5, zero = 0} : () -> ()
"fz.k"() {s = -3 : si8, u = 200 : ui8, s64 = -9 : si64, u64 = 9 : ui64} : () -> ()
"fz.l"() {b1 = true, b0 = false, i1t = 1 : i1, i1f = 0 : i1, i1neg = -1 : i1} : () -> ()
"fz.m"() {x = 0x10 : i32, y = 0xFF : i8, z = 0xffff : i16, w = 0x7FFFFFFF : i32, v = 0xDEADBEEF : i64} : () -> ()
"fz.n"() {w2 = 1 : i2, w3 = -4 : i3, w17 = 65535 : i17, w0 = 0 : i0} : () -> ()
"fz.o"() {arr = [1, 2 : i32, 3 : i8, 4 : index, -5, true]} : () -> ()
