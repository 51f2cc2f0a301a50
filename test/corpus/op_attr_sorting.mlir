// Attribute dictionaries are printed sorted by key (byte order).
"fz.a"() {zeta = 1 : i32, alpha = 2 : i32, Beta = 3 : i32, _gamma = 4 : i32, alpha2 = 5 : i32, "alpha-1" = 6 : i32, alpha1 = 7 : i32} : () -> ()
"fz.b"() {b = 1 : i32, a = 2 : i32} : () -> ()
"fz.c"() {sym_name = "k0", function_type = () -> (), arg_attrs = [], res_attrs = []} : () -> ()
"fz.d"() {"Z" = 1 : i32, "z" = 2 : i32, "0" = 3 : i32, "." = 4 : i32} : () -> ()
