// Op results: none, one, many; %x:N and %x#i uses.
"fz.none"() : () -> ()
%0 = "fz.one"() : () -> i32
%1:2 = "fz.two"() : () -> (i32, f32)
%2:3 = "fz.three"() : () -> (i1, i8, i16)
"fz.use"(%1#0, %1#1, %2#2, %0) : (i32, f32, i16, i32) -> ()
%named = "fz.named"(%2#0, %2#1) : (i1, i8) -> index
%multi:4 = "fz.four"(%named, %named) : (index, index) -> (index, index, index, index)
"fz.use2"(%multi#3, %multi#0, %multi#2, %multi#1) : (index, index, index, index) -> ()
%single:1 = "fz.single_group"() : () -> i64
"fz.use3"(%single#0, %single) : (i64, i64) -> ()
%unused:2 = "fz.unused"() : () -> (i1, i1)
%a, %b = "fz.comma"() : () -> (i32, i32)
%c, %d:2 = "fz.comma2"() : () -> (i32, i32, i32)
"fz.use4"(%a, %b, %c, %d#0, %d#1) : (i32, i32, i32, i32, i32) -> ()
