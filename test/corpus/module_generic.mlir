// Module written in generic form, with attributes and a symbol name.
"builtin.module"() ({
  "fz.x"() : () -> ()
}) {sym_name = "gen", fz.attr = 1 : i32} : () -> ()
