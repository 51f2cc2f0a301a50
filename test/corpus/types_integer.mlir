// Integer types: signless, signed, unsigned, many widths.
"fz.ints"() : () -> (i1, i2, i4, i7, i8, i16, i32, i64, i128, i256)
"fz.sints"() : () -> (si1, si8, si16, si32, si64, si128)
"fz.uints"() : () -> (ui1, ui8, ui16, ui32, ui64, ui128)
"fz.odd"() : () -> (i0, si0, ui0, i3, i24, i48, i99, i1024, si5, ui17, i16777215)
"fz.index"() : () -> index
%a = "fz.make"() : () -> i1
%b = "fz.make"() : () -> si32
%c = "fz.make"() : () -> ui64
%d = "fz.make"() : () -> index
"fz.use"(%a, %b, %c, %d) : (i1, si32, ui64, index) -> ()
