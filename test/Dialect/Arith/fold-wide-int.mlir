// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// Integer folds at widths past 64 and 128 bits (and at the largest width, i16777215), as
// mlir-opt-19 folds them with APInt: every CHECK line is what mlir-opt-19 prints (see
// mlir-opt/fold-wide-int.mlir). Division by zero, INT_MIN / -1 and shifts by the width or more
// stay unfolded; for elementwise shifts only the last element's amount decides, as in MLIR.
// The last function is a pattern case tools/mlirgen/arith_int_fuzz.py found: `select (not c)`
// swaps the alternatives only for a scalar condition.

// CHECK-LABEL: func.func @add_sub_mul_i65() -> (i65, i65, i65, i65)
// CHECK-NEXT:  %c-18446744073709551616_i65 = arith.constant -18446744073709551616 : i65
// CHECK-NEXT:  %c18446744073709551615_i65 = arith.constant 18446744073709551615 : i65
// CHECK-NEXT:  %c1_i65 = arith.constant 1 : i65
// CHECK-NEXT:  %c-2_i65 = arith.constant -2 : i65
// CHECK-NEXT:  return %c-18446744073709551616_i65, %c18446744073709551615_i65, %c1_i65, %c-2_i65 : i65, i65, i65, i65
func.func @add_sub_mul_i65() -> (i65, i65, i65, i65) {
  %max = arith.constant 18446744073709551615 : i65
  %one = arith.constant 1 : i65
  %min = arith.constant -18446744073709551616 : i65
  %0 = arith.addi %max, %one : i65
  %1 = arith.subi %min, %one : i65
  %2 = arith.muli %max, %max : i65
  %3 = arith.addi %max, %max overflow<nsw> : i65
  return %0, %1, %2, %3 : i65, i65, i65, i65
}

// CHECK-LABEL: func.func @add_mul_i127_i128_i129() -> (i127, i128, i129, i128, i129)
// CHECK-NEXT:  %c-2_i127 = arith.constant -2 : i127
// CHECK-NEXT:  %c-170141183460469231731687303715884105728_i128 = arith.constant -170141183460469231731687303715884105728 : i128
// CHECK-NEXT:  %c-340282366920938463463374607431768211456_i129 = arith.constant -340282366920938463463374607431768211456 : i129
// CHECK-NEXT:  %c1_i128 = arith.constant 1 : i128
// CHECK-NEXT:  return %c-2_i127, %c-170141183460469231731687303715884105728_i128, %c-340282366920938463463374607431768211456_i129, %c1_i128, %c-340282366920938463463374607431768211456_i129 : i127, i128, i129, i128, i129
func.func @add_mul_i127_i128_i129() -> (i127, i128, i129, i128, i129) {
  %a = arith.constant 85070591730234615865843651857942052863 : i127
  %b = arith.constant 2 : i127
  %0 = arith.muli %a, %b : i127
  %c = arith.constant 170141183460469231731687303715884105727 : i128
  %d = arith.constant 1 : i128
  %1 = arith.addi %c, %d : i128
  %e = arith.constant 340282366920938463463374607431768211455 : i129
  %f = arith.constant 1 : i129
  %2 = arith.addi %e, %f : i129
  %g = arith.constant -1 : i128
  %3 = arith.muli %g, %g : i128
  %h = arith.constant 0x100000000000000000000000000000000 : i129
  %4 = arith.muli %h, %e : i129
  return %0, %1, %2, %3, %4 : i127, i128, i129, i128, i129
}

// CHECK-LABEL: func.func @i256_arith() -> (i256, i256, i256, i256, i256)
// CHECK-NEXT:  %c-57896044618658097711785492491998275025400424442696825230716446325055330252079_i256 = arith.constant -57896044618658097711785492491998275025400424442696825230716446325055330252079 : i256
// CHECK-NEXT:  %c-57896044618658097711785492491998275025400424442696825230716446325055330252077_i256 = arith.constant -57896044618658097711785492491998275025400424442696825230716446325055330252077 : i256
// CHECK-NEXT:  %c-12345678901234567890123456789012345678901234567890_i256 = arith.constant -12345678901234567890123456789012345678901234567890 : i256
// CHECK-NEXT:  %c-54934483641998833241551055171078990976883355965926296956119859842724276399036_i256 = arith.constant -54934483641998833241551055171078990976883355965926296956119859842724276399036 : i256
// CHECK-NEXT:  return %c-57896044618658097711785492491998275025400424442696825230716446325055330252079_i256, %c-57896044618658097711785492491998275025400424442696825230716446325055330252077_i256, %c-12345678901234567890123456789012345678901234567890_i256, %c-12345678901234567890123456789012345678901234567890_i256, %c-54934483641998833241551055171078990976883355965926296956119859842724276399036_i256 : i256, i256, i256, i256, i256
func.func @i256_arith() -> (i256, i256, i256, i256, i256) {
  %a = arith.constant 57896044618658097711785492504343953926634992332820282019728792003956564819967 : i256
  %b = arith.constant 12345678901234567890123456789012345678901234567890 : i256
  %m1 = arith.constant -1 : i256
  %0 = arith.addi %a, %b : i256
  %1 = arith.subi %b, %a : i256
  %2 = arith.muli %a, %b : i256
  %3 = arith.muli %b, %m1 : i256
  %4 = arith.muli %b, %b : i256
  return %0, %1, %2, %3, %4 : i256, i256, i256, i256, i256
}

// CHECK-LABEL: func.func @i1000_arith() -> (i1000, i1000, i1000)
// CHECK-NEXT:  %c958003348576665509595058902257682511712376605009019619921222676369861708097102751576779823436465136522884374485212397717106770234428924957154802463176719081753602723016521124728418106293294233847673611237381083516798789018458017786666650528855061195603418035300362899988332077710565124765384704_i1000 = arith.constant 958003348576665509595058902257682511712376605009019619921222676369861708097102751576779823436465136522884374485212397717106770234428924957154802463176719081753602723016521124728418106293294233847673611237381083516798789018458017786666650528855061195603418035300362899988332077710565124765384704 : i1000
// CHECK-NEXT:  %c638668899051110339730039268171788341141584403339346413280815117579907805398068501051186548957643424348589582990141598478071180156285949971436534975451146054502401815344347416485612070862196155898449074158254055677865859345638678524444433685903374130402278690200241933325554718473710083176923136_i1000 = arith.constant 638668899051110339730039268171788341141584403339346413280815117579907805398068501051186548957643424348589582990141598478071180156285949971436534975451146054502401815344347416485612070862196155898449074158254055677865859345638678524444433685903374130402278690200241933325554718473710083176923136 : i1000
// CHECK-NEXT:  %c15241578753238836750495351562536198787501905199875019052100_i1000 = arith.constant 15241578753238836750495351562536198787501905199875019052100 : i1000
// CHECK-NEXT:  return %c958003348576665509595058902257682511712376605009019619921222676369861708097102751576779823436465136522884374485212397717106770234428924957154802463176719081753602723016521124728418106293294233847673611237381083516798789018458017786666650528855061195603418035300362899988332077710565124765384704_i1000, %c638668899051110339730039268171788341141584403339346413280815117579907805398068501051186548957643424348589582990141598478071180156285949971436534975451146054502401815344347416485612070862196155898449074158254055677865859345638678524444433685903374130402278690200241933325554718473710083176923136_i1000, %c15241578753238836750495351562536198787501905199875019052100_i1000 : i1000, i1000, i1000
func.func @i1000_arith() -> (i1000, i1000, i1000) {
  %a = arith.constant 0x8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 : i1000
  %b = arith.constant 3 : i1000
  %c = arith.constant 123456789012345678901234567890 : i1000
  %0 = arith.muli %a, %b : i1000
  %1 = arith.addi %a, %a : i1000
  %2 = arith.muli %c, %c : i1000
  return %0, %1, %2 : i1000, i1000, i1000
}

// CHECK-LABEL: func.func @divisions_i129() -> (i129, i129, i129, i129, i129, i129, i129)
// CHECK-NEXT:  %c-18446744073709551603_i129 = arith.constant -18446744073709551603 : i129
// CHECK-NEXT:  %c18446744073709551603_i129 = arith.constant 18446744073709551603 : i129
// CHECK-NEXT:  %c-168_i129 = arith.constant -168 : i129
// CHECK-NEXT:  %c170_i129 = arith.constant 170 : i129
// CHECK-NEXT:  %c48611766702991209066196372490252601637_i129 = arith.constant 48611766702991209066196372490252601637 : i129
// CHECK-NEXT:  %c18446744073709551604_i129 = arith.constant 18446744073709551604 : i129
// CHECK-NEXT:  %c-18446744073709551604_i129 = arith.constant -18446744073709551604 : i129
// CHECK-NEXT:  return %c-18446744073709551603_i129, %c18446744073709551603_i129, %c-168_i129, %c170_i129, %c48611766702991209066196372490252601637_i129, %c18446744073709551604_i129, %c-18446744073709551604_i129 : i129, i129, i129, i129, i129, i129, i129
func.func @divisions_i129() -> (i129, i129, i129, i129, i129, i129, i129) {
  %a = arith.constant -340282366920938463463374607431768211455 : i129
  %b = arith.constant 18446744073709551629 : i129
  %m7 = arith.constant -7 : i129
  %0 = arith.divsi %a, %b : i129
  %1 = arith.divui %a, %b : i129
  %2 = arith.remsi %a, %b : i129
  %3 = arith.remui %a, %b : i129
  %4 = arith.ceildivsi %a, %m7 : i129
  %5 = arith.ceildivui %a, %b : i129
  %6 = arith.floordivsi %a, %b : i129
  return %0, %1, %2, %3, %4, %5, %6 : i129, i129, i129, i129, i129, i129, i129
}

// CHECK-LABEL: func.func @divisions_i256(%arg0: i256) -> (i256, i256, i256, i256, i256, i256, i256, i256, i256)
// CHECK-NEXT:  %c-170141183460469231731687303715884105703_i256 = arith.constant -170141183460469231731687303715884105703 : i256
// CHECK-NEXT:  %c-1_i256 = arith.constant -1 : i256
// CHECK-NEXT:  %c-57896044618658097711785492504343953926634992332820282019728792003956564819968_i256 = arith.constant -57896044618658097711785492504343953926634992332820282019728792003956564819968 : i256
// CHECK-NEXT:  %c0_i256 = arith.constant 0 : i256
// CHECK-NEXT:  %c340282366920938463463374607431768211405_i256 = arith.constant 340282366920938463463374607431768211405 : i256
// CHECK-NEXT:  %c2600_i256 = arith.constant 2600 : i256
// CHECK-NEXT:  %0 = arith.divsi %c-57896044618658097711785492504343953926634992332820282019728792003956564819968_i256, %c-1_i256 : i256
// CHECK-NEXT:  %1 = arith.divui %c-1_i256, %c0_i256 : i256
// CHECK-NEXT:  %2 = arith.remsi %arg0, %c0_i256 : i256
// CHECK-NEXT:  %3 = arith.ceildivsi %c-57896044618658097711785492504343953926634992332820282019728792003956564819968_i256, %c-1_i256 : i256
// CHECK-NEXT:  %4 = arith.floordivsi %c-57896044618658097711785492504343953926634992332820282019728792003956564819968_i256, %c-1_i256 : i256
// CHECK-NEXT:  return %c340282366920938463463374607431768211405_i256, %c2600_i256, %0, %1, %2, %3, %4, %c0_i256, %c-170141183460469231731687303715884105703_i256 : i256, i256, i256, i256, i256, i256, i256, i256, i256
func.func @divisions_i256(%x: i256) -> (i256, i256, i256, i256, i256, i256, i256, i256, i256) {
  %a = arith.constant 115792089237316195423570985008687907853269984665640564039457584007913129639935 : i256
  %b = arith.constant 340282366920938463463374607431768211507 : i256
  %min = arith.constant -57896044618658097711785492504343953926634992332820282019728792003956564819968 : i256
  %m1 = arith.constant -1 : i256
  %zero = arith.constant 0 : i256
  %0 = arith.divui %a, %b : i256
  %1 = arith.remui %a, %b : i256
  %2 = arith.divsi %min, %m1 : i256
  %3 = arith.divui %a, %zero : i256
  %4 = arith.remsi %x, %zero : i256
  %5 = arith.ceildivsi %min, %m1 : i256
  %6 = arith.floordivsi %min, %m1 : i256
  %7 = arith.remsi %min, %m1 : i256
  %8 = arith.floordivsi %min, %b : i256
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i256, i256, i256, i256, i256, i256, i256, i256, i256
}

// CHECK-LABEL: func.func @bitwise_i300() -> (i300, i300, i300, i300)
// CHECK-NEXT:  %c-119825645666734475662849746377022246210082179265891646139393699044666366921362509477707776_i300 = arith.constant -119825645666734475662849746377022246210082179265891646139393699044666366921362509477707776 : i300
// CHECK-NEXT:  %c-23077579909509855749396284644145832412141012663470715121_i300 = arith.constant -23077579909509855749396284644145832412141012663470715121 : i300
// CHECK-NEXT:  %c119825645666734475662849746377022223132502269756035896743109054898833954780349846006992655_i300 = arith.constant 119825645666734475662849746377022223132502269756035896743109054898833954780349846006992655 : i300
// CHECK-NEXT:  %c24519928653854221733733552434404946937899825954937634815_i300 = arith.constant 24519928653854221733733552434404946937899825954937634815 : i300
// CHECK-NEXT:  return %c-119825645666734475662849746377022246210082179265891646139393699044666366921362509477707776_i300, %c-23077579909509855749396284644145832412141012663470715121_i300, %c119825645666734475662849746377022223132502269756035896743109054898833954780349846006992655_i300, %c24519928653854221733733552434404946937899825954937634815_i300 : i300, i300, i300, i300
func.func @bitwise_i300() -> (i300, i300, i300, i300) {
  %a = arith.constant 0xfffffffffffffffffffffffffffff0000000000000000000000000000000000000000000000 : i300
  %b = arith.constant 0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f : i300
  %m1 = arith.constant -1 : i300
  %0 = arith.andi %a, %b : i300
  %1 = arith.ori %a, %b : i300
  %2 = arith.xori %a, %b : i300
  %3 = arith.xori %a, %m1 : i300
  return %0, %1, %2, %3 : i300, i300, i300, i300
}

// CHECK-LABEL: func.func @shifts_i200(%arg0: i200) -> (i200, i200, i200, i200, i200, i200, i200)
// CHECK-NEXT:  %c-803469022129495137770981046170581301261101496891396417650687_i200 = arith.constant -803469022129495137770981046170581301261101496891396417650687 : i200
// CHECK-NEXT:  %c200_i200 = arith.constant 200 : i200
// CHECK-NEXT:  %c340282366920938463463374607431768211456_i200 = arith.constant 340282366920938463463374607431768211456 : i200
// CHECK-NEXT:  %c1361129467683753853853498429727072845824_i200 = arith.constant 1361129467683753853853498429727072845824 : i200
// CHECK-NEXT:  %c-590295810358705651712_i200 = arith.constant -590295810358705651712 : i200
// CHECK-NEXT:  %c590295810358705651712_i200 = arith.constant 590295810358705651712 : i200
// CHECK-NEXT:  %0 = arith.shli %c-803469022129495137770981046170581301261101496891396417650687_i200, %c200_i200 : i200
// CHECK-NEXT:  %1 = arith.shrsi %c-803469022129495137770981046170581301261101496891396417650687_i200, %c340282366920938463463374607431768211456_i200 : i200
// CHECK-NEXT:  %2 = arith.shrui %arg0, %c200_i200 : i200
// CHECK-NEXT:  return %c1361129467683753853853498429727072845824_i200, %c-590295810358705651712_i200, %c590295810358705651712_i200, %0, %1, %2, %arg0 : i200, i200, i200, i200, i200, i200, i200
func.func @shifts_i200(%x: i200) -> (i200, i200, i200, i200, i200, i200, i200) {
  %a = arith.constant -803469022129495137770981046170581301261101496891396417650687 : i200
  %n = arith.constant 130 : i200
  %w = arith.constant 200 : i200
  %big = arith.constant 0x100000000000000000000000000000000 : i200
  %0 = arith.shli %a, %n : i200
  %1 = arith.shrsi %a, %n : i200
  %2 = arith.shrui %a, %n : i200
  %3 = arith.shli %a, %w : i200
  %4 = arith.shrsi %a, %big : i200
  %5 = arith.shrui %x, %w : i200
  %zero = arith.constant 0 : i200
  %6 = arith.shli %x, %zero : i200
  return %0, %1, %2, %3, %4, %5, %6 : i200, i200, i200, i200, i200, i200, i200
}

// CHECK-LABEL: func.func @minmax_i192(%arg0: i192) -> (i192, i192, i192, i192, i192, i192, i192, i192)
// CHECK-NEXT:  %c-1_i192 = arith.constant -1 : i192
// CHECK-NEXT:  %c-3138550867693340381917894711603833208051177722232017256448_i192 = arith.constant -3138550867693340381917894711603833208051177722232017256448 : i192
// CHECK-NEXT:  %c3138550867693340381917894711603833208051177722232017256447_i192 = arith.constant 3138550867693340381917894711603833208051177722232017256447 : i192
// CHECK-NEXT:  %c7_i192 = arith.constant 7 : i192
// CHECK-NEXT:  %c-5_i192 = arith.constant -5 : i192
// CHECK-NEXT:  return %c7_i192, %c-5_i192, %c-5_i192, %c7_i192, %c3138550867693340381917894711603833208051177722232017256447_i192, %arg0, %c-1_i192, %c-3138550867693340381917894711603833208051177722232017256448_i192 : i192, i192, i192, i192, i192, i192, i192, i192
func.func @minmax_i192(%x: i192) -> (i192, i192, i192, i192, i192, i192, i192, i192) {
  %a = arith.constant -5 : i192
  %b = arith.constant 7 : i192
  %0 = arith.maxsi %a, %b : i192
  %1 = arith.maxui %a, %b : i192
  %2 = arith.minsi %a, %b : i192
  %3 = arith.minui %a, %b : i192
  %smax = arith.constant 3138550867693340381917894711603833208051177722232017256447 : i192
  %smin = arith.constant -3138550867693340381917894711603833208051177722232017256448 : i192
  %umax = arith.constant -1 : i192
  %4 = arith.maxsi %x, %smax : i192
  %5 = arith.minsi %x, %smax : i192
  %6 = arith.maxui %x, %umax : i192
  %7 = arith.minsi %x, %smin : i192
  return %0, %1, %2, %3, %4, %5, %6, %7 : i192, i192, i192, i192, i192, i192, i192, i192
}

// CHECK-LABEL: func.func @cmpi_i1000() -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  return %false, %true, %true, %true, %false, %false, %false, %false, %true, %true : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
func.func @cmpi_i1000() -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %a = arith.constant -1 : i1000
  %b = arith.constant 0x10000000000000000000000000000000000000000 : i1000
  %0 = arith.cmpi eq, %a, %b : i1000
  %1 = arith.cmpi ne, %a, %b : i1000
  %2 = arith.cmpi slt, %a, %b : i1000
  %3 = arith.cmpi sle, %a, %b : i1000
  %4 = arith.cmpi sgt, %a, %b : i1000
  %5 = arith.cmpi sge, %a, %b : i1000
  %6 = arith.cmpi ult, %a, %b : i1000
  %7 = arith.cmpi ule, %a, %b : i1000
  %8 = arith.cmpi ugt, %a, %b : i1000
  %9 = arith.cmpi uge, %a, %b : i1000
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// CHECK-LABEL: func.func @casts_wide() -> (i256, i256, i129, i65, index, index, i300, i1)
// CHECK-NEXT:  %c-340282366920938463463374607431768211455_i256 = arith.constant -340282366920938463463374607431768211455 : i256
// CHECK-NEXT:  %c340282366920938463463374607431768211457_i256 = arith.constant 340282366920938463463374607431768211457 : i256
// CHECK-NEXT:  %c-111915111199678894100847213160773097591_i129 = arith.constant -111915111199678894100847213160773097591 : i129
// CHECK-NEXT:  %c-6066930334832433271_i65 = arith.constant -6066930334832433271 : i65
// CHECK-NEXT:  %c-6066930334832433271 = arith.constant -6066930334832433271 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %c-3_i300 = arith.constant -3 : i300
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  return %c-340282366920938463463374607431768211455_i256, %c340282366920938463463374607431768211457_i256, %c-111915111199678894100847213160773097591_i129, %c-6066930334832433271_i65, %c-6066930334832433271, %c1, %c-3_i300, %true : i256, i256, i129, i65, index, index, i300, i1
func.func @casts_wide() -> (i256, i256, i129, i65, index, index, i300, i1) {
  %a = arith.constant -340282366920938463463374607431768211455 : i129
  %0 = arith.extsi %a : i129 to i256
  %1 = arith.extui %a : i129 to i256
  %b = arith.constant 0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789 : i256
  %2 = arith.trunci %b : i256 to i129
  %3 = arith.trunci %b : i256 to i65
  %4 = arith.index_cast %b : i256 to index
  %5 = arith.index_castui %a : i129 to index
  %i = arith.constant -3 : index
  %6 = arith.index_cast %i : index to i300
  %7 = arith.trunci %b : i256 to i1
  return %0, %1, %2, %3, %4, %5, %6, %7 : i256, i256, i129, i65, index, index, i300, i1
}

// CHECK-LABEL: func.func @casts_index_ui() -> (i300, i128)
// CHECK-NEXT:  %c18446744073709551613_i300 = arith.constant 18446744073709551613 : i300
// CHECK-NEXT:  %c18446744073709551613_i128 = arith.constant 18446744073709551613 : i128
// CHECK-NEXT:  return %c18446744073709551613_i300, %c18446744073709551613_i128 : i300, i128
func.func @casts_index_ui() -> (i300, i128) {
  %i = arith.constant -3 : index
  %0 = arith.index_castui %i : index to i300
  %1 = arith.index_castui %i : index to i128
  return %0, %1 : i300, i128
}

// CHECK-LABEL: func.func @extended_i128() -> (i128, i1, i128, i128, i128, i128)
// CHECK-NEXT:  %c4_i128 = arith.constant 4 : i128
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %c-5_i128 = arith.constant -5 : i128
// CHECK-NEXT:  %c-1_i128 = arith.constant -1 : i128
// CHECK-NEXT:  return %c4_i128, %true, %c-5_i128, %c-1_i128, %c-5_i128, %c4_i128 : i128, i1, i128, i128, i128, i128
func.func @extended_i128() -> (i128, i1, i128, i128, i128, i128) {
  %a = arith.constant -1 : i128
  %b = arith.constant 5 : i128
  %s, %c = arith.addui_extended %a, %b : i128, i1
  %l, %h = arith.mulsi_extended %a, %b : i128
  %ul, %uh = arith.mului_extended %a, %b : i128
  return %s, %c, %l, %h, %ul, %uh : i128, i1, i128, i128, i128, i128
}

// CHECK-LABEL: func.func @extended_i65_i256() -> (i65, i65, i256, i256, i256, i1)
// CHECK-NEXT:  %c0_i65 = arith.constant 0 : i65
// CHECK-NEXT:  %c9223372036854775808_i65 = arith.constant 9223372036854775808 : i65
// CHECK-NEXT:  %c-23292682344961265258871227021415760625766424903425_i256 = arith.constant -23292682344961265258871227021415760625766424903425 : i256
// CHECK-NEXT:  %c91343852333181432387730302044767688728495783934_i256 = arith.constant 91343852333181432387730302044767688728495783934 : i256
// CHECK-NEXT:  %c91343852333181432387730302044767688728495783680_i256 = arith.constant 91343852333181432387730302044767688728495783680 : i256
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  return %c0_i65, %c9223372036854775808_i65, %c-23292682344961265258871227021415760625766424903425_i256, %c91343852333181432387730302044767688728495783934_i256, %c91343852333181432387730302044767688728495783680_i256, %true : i65, i65, i256, i256, i256, i1
func.func @extended_i65_i256() -> (i65, i65, i256, i256, i256, i1) {
  %a = arith.constant -18446744073709551616 : i65
  %l, %h = arith.mulsi_extended %a, %a : i65
  %b = arith.constant 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff01 : i256
  %c = arith.constant 0xfffffffffffffffffffffffffffffffffffffff : i256
  %ul, %uh = arith.mului_extended %b, %c : i256
  %s, %o = arith.addui_extended %b, %c : i256, i1
  return %l, %h, %ul, %uh, %s, %o : i65, i65, i256, i256, i256, i1
}

// CHECK-LABEL: func.func @vectors_i129() -> (vector<3xi129>, vector<3xi129>, vector<3xi1>, vector<3xi129>, vector<3xi256>)
// CHECK-NEXT:  %cst = arith.constant dense<[-340282366920938463463374607431768211456, 340282366920938463463374607431768211454, -2]> : vector<3xi129>
// CHECK-NEXT:  %cst_0 = arith.constant dense<1> : vector<3xi129>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[true, true, false]> : vector<3xi1>
// CHECK-NEXT:  %cst_2 = arith.constant dense<[1, -1, 340282366920938463463374607431768211455]> : vector<3xi129>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[1, -1, 340282366920938463463374607431768211455]> : vector<3xi256>
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst_3 : vector<3xi129>, vector<3xi129>, vector<3xi1>, vector<3xi129>, vector<3xi256>
func.func @vectors_i129() -> (vector<3xi129>, vector<3xi129>, vector<3xi1>, vector<3xi129>, vector<3xi256>) {
  %a = arith.constant dense<[1, -1, 340282366920938463463374607431768211455]> : vector<3xi129>
  %b = arith.constant dense<340282366920938463463374607431768211455> : vector<3xi129>
  %0 = arith.addi %a, %b : vector<3xi129>
  %1 = arith.muli %b, %b : vector<3xi129>
  %2 = arith.cmpi slt, %a, %b : vector<3xi129>
  %3 = arith.select %2, %a, %b : vector<3xi1>, vector<3xi129>
  %4 = arith.extsi %a : vector<3xi129> to vector<3xi256>
  return %0, %1, %2, %3, %4 : vector<3xi129>, vector<3xi129>, vector<3xi1>, vector<3xi129>, vector<3xi256>
}

// CHECK-LABEL: func.func @tensors_i256() -> (tensor<2xi256>, tensor<2xi256>, tensor<2xi256>, tensor<2xi256>)
// CHECK-NEXT:  %cst = arith.constant dense<[-8, -1]> : tensor<2xi256>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[6, -57896044618658097711785492504343953926634992332820282019728792003956564819967]> : tensor<2xi256>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[5, -57896044618658097711785492504343953926634992332820282019728792003956564819968]> : tensor<2xi256>
// CHECK-NEXT:  %cst_2 = arith.constant dense<-1> : tensor<2xi256>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[3, 0]> : tensor<2xi256>
// CHECK-NEXT:  %0 = arith.divsi %cst_1, %cst_2 : tensor<2xi256>
// CHECK-NEXT:  %1 = arith.remui %cst_1, %cst_3 : tensor<2xi256>
// CHECK-NEXT:  return %0, %1, %cst_0, %cst : tensor<2xi256>, tensor<2xi256>, tensor<2xi256>, tensor<2xi256>
func.func @tensors_i256() -> (tensor<2xi256>, tensor<2xi256>, tensor<2xi256>, tensor<2xi256>) {
  %a = arith.constant dense<[5, -57896044618658097711785492504343953926634992332820282019728792003956564819968]> : tensor<2xi256>
  %b = arith.constant dense<-1> : tensor<2xi256>
  %c = arith.constant dense<[3, 0]> : tensor<2xi256>
  %0 = arith.divsi %a, %b : tensor<2xi256>
  %1 = arith.remui %a, %c : tensor<2xi256>
  %2 = arith.subi %a, %b : tensor<2xi256>
  %3 = arith.shli %b, %c : tensor<2xi256>
  return %0, %1, %2, %3 : tensor<2xi256>, tensor<2xi256>, tensor<2xi256>, tensor<2xi256>
}

// CHECK-LABEL: func.func @select_and_patterns_wide(%arg0: i256, %arg1: i1) -> (i256, i256, i256, i256)
// CHECK-NEXT:  %c-36410713101269170437407320305098024202415694050391575635870091393701964152832_i256 = arith.constant -36410713101269170437407320305098024202415694050391575635870091393701964152832 : i256
// CHECK-NEXT:  %c1_i256 = arith.constant 1 : i256
// CHECK-NEXT:  %c100000000000000000000000000000000000000000_i256 = arith.constant 100000000000000000000000000000000000000000 : i256
// CHECK-NEXT:  %c199999999999999999999999999999999999999999_i256 = arith.constant 199999999999999999999999999999999999999999 : i256
// CHECK-NEXT:  %0 = arith.addi %arg0, %c199999999999999999999999999999999999999999_i256 : i256
// CHECK-NEXT:  %1 = arith.addi %arg0, %c1_i256 : i256
// CHECK-NEXT:  %2 = arith.muli %arg0, %c-36410713101269170437407320305098024202415694050391575635870091393701964152832_i256 : i256
// CHECK-NEXT:  return %c100000000000000000000000000000000000000000_i256, %0, %1, %2 : i256, i256, i256, i256
func.func @select_and_patterns_wide(%x: i256, %c: i1) -> (i256, i256, i256, i256) {
  %t = arith.constant true
  %a = arith.constant 100000000000000000000000000000000000000000 : i256
  %b = arith.constant 99999999999999999999999999999999999999999 : i256
  %0 = arith.select %t, %a, %b : i256
  %1 = arith.addi %x, %a : i256
  %2 = arith.addi %1, %b : i256
  %3 = arith.subi %1, %b : i256
  %4 = arith.muli %x, %a : i256
  %5 = arith.muli %4, %b : i256
  return %0, %2, %3, %5 : i256, i256, i256, i256
}

// CHECK-LABEL: func.func @i1_edges() -> (i1, i1, i1, i1)
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  return %true, %false, %true, %true : i1, i1, i1, i1
func.func @i1_edges() -> (i1, i1, i1, i1) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = arith.divsi %t, %t : i1
  %1 = arith.remsi %t, %t : i1
  %2 = arith.shli %t, %f : i1
  %3 = arith.floordivsi %t, %t : i1
  return %0, %1, %2, %3 : i1, i1, i1, i1
}

// CHECK-LABEL: func.func @index_wraps() -> (index, index, index)
// CHECK-NEXT:  %c9223372036854775805 = arith.constant 9223372036854775805 : index
// CHECK-NEXT:  %c3074457345618258603 = arith.constant 3074457345618258603 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  return %c9223372036854775805, %c3074457345618258603, %c1 : index, index, index
func.func @index_wraps() -> (index, index, index) {
  %a = arith.constant 9223372036854775807 : index
  %b = arith.constant 3 : index
  %0 = arith.muli %a, %b : index
  %1 = arith.ceildivsi %a, %b : index
  %l, %h = arith.mulsi_extended %a, %b : index
  return %0, %1, %h : index, index, index
}

// CHECK-LABEL: func.func @max_width() -> (i16777215, i16777215, i1, i64)
// CHECK-NEXT:  %c-12345678901234567890123_i16777215 = arith.constant -12345678901234567890123 : i16777215
// CHECK-NEXT:  %c12345678901234567890122_i16777215 = arith.constant 12345678901234567890122 : i16777215
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %c-4807115922877859019_i64 = arith.constant -4807115922877859019 : i64
// CHECK-NEXT:  return %c-12345678901234567890123_i16777215, %c12345678901234567890122_i16777215, %true, %c-4807115922877859019_i64 : i16777215, i16777215, i1, i64
func.func @max_width() -> (i16777215, i16777215, i1, i64) {
  %a = arith.constant -1 : i16777215
  %b = arith.constant 12345678901234567890123 : i16777215
  %0 = arith.muli %a, %b : i16777215
  %1 = arith.addi %a, %b : i16777215
  %2 = arith.cmpi ult, %b, %a : i16777215
  %3 = arith.trunci %0 : i16777215 to i64
  return %0, %1, %2, %3 : i16777215, i16777215, i1, i64
}

// CHECK-LABEL: func.func @vector_shift_last_element_decides() -> (vector<2xi130>, vector<2xi130>)
// CHECK-NEXT:  %cst = arith.constant dense<[1, -1]> : vector<2xi130>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[1, 130]> : vector<2xi130>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[0, -680564733841876926926749214863536422912]> : vector<2xi130>
// CHECK-NEXT:  %0 = arith.shrsi %cst, %cst_0 : vector<2xi130>
// CHECK-NEXT:  return %cst_1, %0 : vector<2xi130>, vector<2xi130>
func.func @vector_shift_last_element_decides() -> (vector<2xi130>, vector<2xi130>) {
  %a = arith.constant dense<[1, -1]> : vector<2xi130>
  %ok = arith.constant dense<[200, 129]> : vector<2xi130>
  %far = arith.constant dense<[1, 130]> : vector<2xi130>
  %0 = arith.shli %a, %ok : vector<2xi130>
  %1 = arith.shrsi %a, %far : vector<2xi130>
  return %0, %1 : vector<2xi130>, vector<2xi130>
}

// CHECK-LABEL: func.func @select_not_cond_scalar_only(%arg0: vector<2xi1>, %arg1: i1, %arg2: vector<2xi300>, %arg3: vector<2xi300>) -> (vector<2xi300>, vector<2xi300>)
// CHECK-NEXT:  %cst = arith.constant dense<true> : vector<2xi1>
// CHECK-NEXT:  %0 = arith.xori %arg0, %cst : vector<2xi1>
// CHECK-NEXT:  %1 = arith.select %0, %arg2, %arg3 : vector<2xi1>, vector<2xi300>
// CHECK-NEXT:  %2 = arith.select %arg1, %arg3, %arg2 : vector<2xi300>
// CHECK-NEXT:  return %1, %2 : vector<2xi300>, vector<2xi300>
func.func @select_not_cond_scalar_only(%c: vector<2xi1>, %s: i1, %a: vector<2xi300>, %b: vector<2xi300>) -> (vector<2xi300>, vector<2xi300>) {
  %ones = arith.constant dense<true> : vector<2xi1>
  %t = arith.constant true
  %n = arith.xori %c, %ones : vector<2xi1>
  %0 = arith.select %n, %a, %b : vector<2xi1>, vector<2xi300>
  %ns = arith.xori %s, %t : i1
  %1 = arith.select %ns, %a, %b : vector<2xi300>
  return %0, %1 : vector<2xi300>, vector<2xi300>
}
