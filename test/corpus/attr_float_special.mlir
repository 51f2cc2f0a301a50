// Special float values: -0.0, infinities, NaNs (hex form).
"fz.zero"() {a = -0.0 : f32, b = -0.0 : f64, c = 0.0 : f16, d = -0.0 : bf16} : () -> ()
"fz.inf"() {a = 0x7F800000 : f32, b = 0xFF800000 : f32, c = 0x7FF0000000000000 : f64, d = 0xFFF0000000000000 : f64} : () -> ()
"fz.nan"() {a = 0x7FC00000 : f32, b = 0xFFC00000 : f32, c = 0x7FF8000000000000 : f64, d = 0x7FC00001 : f32, e = 0x7F800001 : f32} : () -> ()
"fz.subnormal"() {a = 0x00000001 : f32, b = 0x0000000000000001 : f64, c = 0x007FFFFF : f32} : () -> ()
"fz.exact"() {a = 0x3F800000 : f32, b = 0x3FB999999999999A : f64, c = 0x4B800000 : f32} : () -> ()
"fz.f80"() {a = 0x7FFF8000000000000000 : f80, b = 0x3FFF8000000000000000 : f80} : () -> ()
