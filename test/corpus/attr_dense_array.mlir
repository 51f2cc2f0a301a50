// Dense array attributes.
"fz.da"() {a = array<i64: 1, 2, 3>, b = array<i32: -1, 0, 1>, c = array<i8: 127, -128>, d = array<i16: 7>} : () -> ()
"fz.db"() {t = array<i1: true>, f = array<i1: true, false, true>, e1 = array<i1>} : () -> ()
"fz.df"() {a = array<f32: 1.0, 0.1, -2.5>, b = array<f64: 0.30000000000000004, 1234567.0, 1.0e10>, c = array<f32: 0x7FC00000, 0xFF800000>} : () -> ()
"fz.de"() {a = array<i32>, b = array<i64>, c = array<f32>, d = array<f64>, e = array<i8>, f = array<i16>} : () -> ()
"fz.dx"() {a = array<i64: 9223372036854775807, -9223372036854775808>, b = array<i32: 0x10, 0xFF>, c = array<i64: 1,2,  3>} : () -> ()
"fz.nest"() {list = [array<i64: 1>, array<i32>], dict = {a = array<i8: 1, 2>}} : () -> ()
