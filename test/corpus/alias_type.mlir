// Type aliases are expanded on print.
!f = f32
!t = tensor<4x4x!f>
!tt = !t
!opq = !fz.opaque<"x">
!fn = (i32) -> !f
!mr = memref<?xf32, strided<[1], offset: ?>>
%0 = "fz.a"() : () -> !t
%1 = "fz.b"(%0) : (!tt) -> !opq
"fz.c"(%0, %1) {ty = !fn, m = !mr} : (!t, !opq) -> ()
%2 = "fz.d"() : () -> tensor<2x!f>
