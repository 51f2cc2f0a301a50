// Every undeclared SSA value is reported, in source order.
"fz.a"(%x) : (i32) -> ()
"fz.b"(%y, %x) : (i32, i32) -> ()
"fz.c"(%z) : (i64) -> ()
