// Unit and boolean attributes.
"fz.u"() {u = unit, v, w = unit} : () -> ()
"fz.b"() {t = true, f = false, i1t = 1 : i1, i1f = 0 : i1, arr = [true, false, unit]} : () -> ()
"fz.nested"() {d = {flag, b = true}} : () -> ()
%0 = "fz.cond"() {pred = true} : () -> i1
"fz.use"(%0) {on} : (i1) -> ()
