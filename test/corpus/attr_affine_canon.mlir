// Affine expressions are simplified when built; the printed form is canonical.
"fz.a"() {m = affine_map<(d0) -> (d0 + d0, 2 * d0, d0 * 1, 0 + d0, d0 floordiv 1, d0 mod 1)>} : () -> ()
"fz.b"() {m = affine_map<(d0, d1) -> (d0 - 1 - 1, (d0 + 1) + d1, d1 + (d0 + 1), 3 + d0 * 2, d0 - d1 * 2)>} : () -> ()
"fz.c"() {m = affine_map<(d0)[s0] -> (s0 + d0, d0 * s0, (d0 * 4) floordiv 2, (d0 + 8) mod 4, -(d0 - 1))>} : () -> ()
"fz.d"() {m = affine_map<(d0, d1) -> (4 * 2 + 1, d0 ceildiv 1, (d0 * 3 + d1 * 3) floordiv 3, d1 * -1)>} : () -> ()
"fz.e"() {s = affine_set<(d0)[s0] : (d0 - s0 >= 0, 0 >= d0 - 10, d0 * 2 == 4)>} : () -> ()
