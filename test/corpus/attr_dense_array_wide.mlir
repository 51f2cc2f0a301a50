// Dense arrays of element types wider than 64 bits, and unsigned 64-bit extremes.
"fz.wide"() {a = array<ui128: 340282366920938463463374607431768211455, 5>, b = array<si128: -5, 170141183460469231731687303715884105727>, c = array<i256: -1, 2>, d = array<f80: 0x401396B4380000000000, 1.0, 0xB8E9182A8241144245A5>, e = array<f128: 1.5, -0.0>} : () -> ()
"fz.narrow"() {a = array<ui64: 18446744073709551615, 255>, b = array<ui8: 255>, c = array<i8: 255, -128>, d = array<si64: -9223372036854775808>, e = array<si1: true, false>, f = array<ui1: false, true>} : () -> ()
