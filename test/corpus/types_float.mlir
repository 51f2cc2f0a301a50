// Every builtin float type.
"fz.half"() : () -> (f16, bf16)
"fz.std"() : () -> (f32, f64)
"fz.ext"() : () -> (f80, f128)
"fz.tf"() : () -> tf32
"fz.f8"() : () -> (f8E5M2, f8E4M3, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ)
%x = "fz.make"() : () -> bf16
%y = "fz.cvt"(%x) : (bf16) -> f8E4M3FN
"fz.use"(%x, %y) : (bf16, f8E4M3FN) -> ()
