// An affine map using an undeclared dimension.
"fz.a"() {m = affine_map<(d0) -> (d1)>} : () -> ()
