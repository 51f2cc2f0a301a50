// Unranked memrefs with and without memory space.
"fz.u0"() : () -> memref<*xf32>
"fz.u1"() : () -> memref<*xi8, 1>
"fz.u2"() : () -> memref<*xf32, 7 : i32>
"fz.u3"() : () -> memref<*xbf16, "private">
"fz.u4"() : () -> memref<*xindex, "scratch">
%m = "fz.alloc"() : () -> memref<*xf32, 2>
"fz.free"(%m) : (memref<*xf32, 2>) -> ()
