// arith.constant: result names depend on value and type.
func.func @constants() {
  %0 = arith.constant 0 : index
  %1 = arith.constant 1 : index
  %2 = arith.constant -1 : index
  %3 = arith.constant 42 : index
  %4 = arith.constant 0 : i32
  %5 = arith.constant 1 : i32
  %6 = arith.constant -1 : i64
  %7 = arith.constant 255 : i8
  %8 = arith.constant true
  %9 = arith.constant false
  %10 = arith.constant 1 : i1
  %11 = arith.constant 0 : i1
  %12 = arith.constant 9223372036854775807 : i64
  %13 = arith.constant -9223372036854775808 : i64
  %14 = arith.constant 170141183460469231731687303715884105727 : i128
  %15 = arith.constant 7 : i16
  %16 = arith.constant 7 : i16
  %17 = arith.constant 0x10 : i32
  %18 = arith.constant 3 : i3
  "fz.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18) : (index, index, index, index, i32, i32, i64, i8, i1, i1, i1, i1, i64, i64, i128, i16, i16, i32, i3) -> ()
  return
}
func.func @constant_names_in_regions() -> index {
  %c = arith.constant 5 : index
  "fz.region"() ({
    %c_inner = arith.constant 5 : index
    %c2 = arith.constant 5 : i32
    "fz.use"(%c_inner, %c2) : (index, i32) -> ()
  }) : () -> ()
  return %c : index
}
func.func @generic_constant() -> i32 {
  %0 = "arith.constant"() <{value = 12 : i32}> : () -> i32
  return %0 : i32
}
