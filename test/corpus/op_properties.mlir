// Properties <{...}> on unregistered ops, with and without attributes.
"fz.p0"() <{p = 3 : i64}> : () -> ()
"fz.p1"() <{p = 3 : i64}> {q = unit} : () -> ()
"fz.p2"() <{z = "last", a = "first", m = [1, 2]}> {b, a} : () -> ()
%0 = "fz.p3"() <{value = 1.5 : f32}> : () -> f32
"fz.p4"(%0) <{k = {nested = true}}> ({
  "fz.in"() <{inner = 0 : i8}> : () -> ()
}) {attr = "x"} : (f32) -> ()
"fz.p5"() <{}> : () -> ()
"fz.p6"() <{same = 1 : i32}> {same = 2 : i32} : () -> ()
"fz.p7"() ({
  "fz.br"() [^bb1] <{target = 1 : i32}> : () -> ()
^bb1:
  "fz.end"() : () -> ()
}) : () -> ()
