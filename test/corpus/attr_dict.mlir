// Dictionary attributes: sorting, nesting, quoted keys.
"fz.d0"() {z = 1 : i32, a = 2 : i32, m = 3 : i32, B = 4 : i32, _x = 5 : i32, a1 = 6 : i32, a10 = 7 : i32, a2 = 8 : i32} : () -> ()
"fz.d1"() {inner = {}, nested = {b = 1, a = {y = "y", x = "x"}}} : () -> ()
"fz.d2"() {"a-b" = 1 : i32, "0x" = 2 : i32, "with space" = 3 : i32, "dot.ok" = 4 : i32, "$dollar" = 5 : i32, "q\"k" = 6 : i32} : () -> ()
"fz.d3"() {"plain" = 1 : i32, "_under" = 2 : i32, "9lead" = 3 : i32} : () -> ()
"fz.d4"() {flag, other = unit, "quoted-unit"} : () -> ()
"fz.d5"() {list = [{a = 1}, {}], dict = {arr = [1, 2], str = "s"}} : () -> ()
"fz.d6"() {"é" = 1 : i32, Z = 2 : i32, "~" = 3 : i32} : () -> ()
