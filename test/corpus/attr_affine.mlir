// Affine maps, integer sets and strided layouts as attributes.
"fz.map"() {id = affine_map<(d0) -> (d0)>, perm = affine_map<(d0, d1) -> (d1, d0)>, sym = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * 2)>} : () -> ()
"fz.map2"() {const = affine_map<() -> (0)>, empty = affine_map<(d0) -> ()>, mod = affine_map<(d0) -> (d0 mod 4, d0 floordiv 4, d0 ceildiv 3)>} : () -> ()
"fz.map3"() {neg = affine_map<(d0, d1) -> (d0 - d1, -d0, d0 * -3 + 7)>, syms = affine_map<()[s0, s1] -> (s0 * s1)>, paren = affine_map<(d0, d1) -> ((d0 + d1) * 4)>} : () -> ()
"fz.map4"() {same = affine_map<(d0, d1) -> (d1, d0)>, other = affine_map<(i, j) -> (j + i)>} : () -> ()
"fz.set"() {s0 = affine_set<(d0) : (d0 >= 0)>, s1 = affine_set<(d0, d1)[s0] : (d0 - s0 >= 0, d1 == 0, -d0 + 10 >= 0)>, s2 = affine_set<()[s0] : (s0 - 1 == 0)>} : () -> ()
"fz.strided"() {a = strided<[1]>, b = strided<[4, 1], offset: 8>, c = strided<[?, ?], offset: ?>, d = strided<[]>, e = strided<[2], offset: 0>} : () -> ()
"fz.maplist"() {maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 + 1)>]} : () -> ()
