// Overflow flags on addi/subi/muli.
func.func @overflow(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.addi %0, %b overflow<nuw> : i32
  %2 = arith.addi %1, %b overflow<nsw, nuw> : i32
  %3 = arith.subi %2, %a overflow<nuw, nsw> : i32
  %4 = arith.muli %3, %a overflow<nsw> : i32
  %5 = arith.muli %4, %a overflow<none> : i32
  %6 = arith.addi %5, %a overflow<nsw> {fz.k} : i32
  %7 = "arith.addi"(%6, %a) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
  %8 = "arith.muli"(%7, %a) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  return %8 : i32
}
