// The same alias is defined twice.
!t = i32
!t = i64
"fz.a"() : () -> !t
