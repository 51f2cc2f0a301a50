// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @addi_zero(
// CHECK-SAME:  %[[X:.*]]: i32
// CHECK-NEXT:  return %[[X]], %[[X]] : i32, i32
func.func @addi_zero(%x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %a = arith.addi %x, %c0 : i32
  %b = arith.addi %c0, %x : i32
  return %a, %b : i32, i32
}

// CHECK-LABEL: func.func @addi_constants(
// CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : i32
// CHECK-DAG:   %[[MIN:.*]] = arith.constant -128 : i8
// CHECK:       return %[[C6]], %[[MIN]], %[[MIN]] : i32, i8, i8
func.func @addi_constants() -> (i32, i8, i8) {
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %a = arith.addi %c5, %c1 : i32
  %m1 = arith.constant 127 : i8
  %m2 = arith.constant 1 : i8
  %b = arith.addi %m1, %m2 : i8
  %c = arith.addi %m1, %m2 overflow<nsw> : i8
  return %a, %b, %c : i32, i8, i8
}

// CHECK-LABEL: func.func @addi_commute(
// CHECK-SAME:  %[[X:.*]]: i32
// CHECK:       %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:  %[[R:.*]] = arith.addi %[[X]], %[[C5]] : i32
// CHECK-NEXT:  return %[[R]] : i32
func.func @addi_commute(%x: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %a = arith.addi %c5, %x : i32
  return %a : i32
}

// CHECK-LABEL: func.func @add_sub_cancel(
// CHECK-SAME:  %[[A:[^:]*]]: i32, %[[B:[^:]*]]: i32
// CHECK-NEXT:  return %[[A]], %[[A]], %[[A]], %[[B]] : i32, i32, i32, i32
func.func @add_sub_cancel(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %s = arith.subi %a, %b : i32
  %r1 = arith.addi %s, %b : i32
  %r2 = arith.addi %b, %s : i32
  %p = arith.addi %a, %b : i32
  %r3 = arith.subi %p, %b : i32
  %r4 = arith.subi %p, %a : i32
  return %r1, %r2, %r3, %r4 : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @subi(
// CHECK-SAME:  %[[X:.*]]: i32
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:   %[[CM2:.*]] = arith.constant -2 : i32
// CHECK:       %[[NEG:.*]] = arith.subi %[[C0]], %[[X]] : i32
// CHECK-NEXT:  return %[[C0]], %[[X]], %[[CM2]], %[[NEG]] : i32, i32, i32, i32
func.func @subi(%x: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %a = arith.subi %x, %x : i32
  %b = arith.subi %x, %c0 : i32
  %c = arith.subi %c3, %c5 : i32
  %d = arith.subi %c0, %x : i32
  return %a, %b, %c, %d : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @muli(
// CHECK-SAME:  %[[X:.*]]: i32
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:   %[[C15:.*]] = arith.constant 15 : i32
// CHECK:       %[[M:.*]] = arith.muli %[[X]], %[[C3]] : i32
// CHECK-NEXT:  return %[[X]], %[[C0]], %[[C15]], %[[M]], %[[X]] : i32, i32, i32, i32, i32
func.func @muli(%x: i32) -> (i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %a = arith.muli %x, %c1 : i32
  %b = arith.muli %x, %c0 : i32
  %c = arith.muli %c3, %c5 : i32
  %d = arith.muli %c3, %x : i32
  %e = arith.muli %c1, %x : i32
  return %a, %b, %c, %d, %e : i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @muli_index_wraps(
// CHECK:       %[[C:.*]] = arith.constant -2 : index
// CHECK-NEXT:  return %[[C]] : index
func.func @muli_index_wraps() -> index {
  %big = arith.constant 9223372036854775807 : index
  %c2 = arith.constant 2 : index
  %r = arith.muli %big, %c2 : index
  return %r : index
}

// CHECK-LABEL: func.func @divisions(
// CHECK-SAME:  %[[X:.*]]: i32
// CHECK-DAG:   %[[Q:.*]] = arith.constant 613566756 : i32
// CHECK-DAG:   %[[CM7:.*]] = arith.constant -7 : i32
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:   %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:   %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG:   %[[D0:.*]] = arith.divsi %[[X]], %[[C0]] : i32
// CHECK-DAG:   %[[OVF:.*]] = arith.divsi %[[MIN]], %[[CM1]] : i32
// CHECK-DAG:   %[[DU0:.*]] = arith.divui %[[CM7]], %[[C0]] : i32
// CHECK:       return %[[X]], %[[X]], %[[D0]], %[[OVF]], %[[CM7]], %[[C0]], %[[Q]], %[[DU0]] :
func.func @divisions(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %c7 = arith.constant 7 : i32
  %cm7 = arith.constant -7 : i32
  %cmin = arith.constant -2147483648 : i32
  %a = arith.divsi %x, %c1 : i32
  %b = arith.divui %x, %c1 : i32
  %c = arith.divsi %x, %c0 : i32
  %d = arith.divsi %cmin, %cm1 : i32
  %e = arith.divsi %c7, %cm1 : i32
  %f = arith.divui %c7, %cm1 : i32
  %h = arith.divui %cm1, %c7 : i32
  %i = arith.divui %cm7, %c0 : i32
  return %a, %b, %c, %d, %e, %f, %h, %i : i32, i32, i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @remainders(
// CHECK-SAME:  %[[X:.*]]: i32
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : i32
// CHECK-DAG:   %[[R0:.*]] = arith.remsi %[[X]], %[[C0]] : i32
// CHECK-DAG:   %[[RU0:.*]] = arith.remui %[[C7]], %[[C0]] : i32
// CHECK:       return %[[C0]], %[[C0]], %[[R0]], %[[C0]], %[[C0]], %[[C3]], %[[RU0]] :
func.func @remainders(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %c7 = arith.constant 7 : i32
  %cm7 = arith.constant -7 : i32
  %cmin = arith.constant -2147483648 : i32
  %a = arith.remsi %x, %c1 : i32
  %b = arith.remui %x, %c1 : i32
  %c = arith.remsi %x, %c0 : i32
  %d = arith.remsi %cmin, %cm1 : i32
  %e = arith.remsi %cm7, %c7 : i32
  %g = arith.remui %cm1, %c7 : i32
  %h = arith.remui %c7, %c0 : i32
  return %a, %b, %c, %d, %e, %g, %h : i32, i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @cmpi(
// CHECK-SAME:  %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:   %[[T:.*]] = arith.constant true
// CHECK-DAG:   %[[F:.*]] = arith.constant false
// CHECK-DAG:   %[[SW:.*]] = arith.cmpi sgt, %[[X]], %[[C3]] : i32
// CHECK-DAG:   %[[EQ:.*]] = arith.cmpi eq, %[[X]], %[[C3]] : i32
// CHECK-DAG:   %[[OPEN:.*]] = arith.cmpi uge, %[[X]], %[[Y]] : i32
// CHECK:       return %[[T]], %[[F]], %[[F]], %[[T]], %[[F]], %[[T]], %[[T]], %[[F]], %[[SW]], %[[EQ]], %[[F]], %[[OPEN]] :
func.func @cmpi(%x: i32, %y: i32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %c3 = arith.constant 3 : i32
  %cm1 = arith.constant -1 : i32
  %a = arith.cmpi eq, %x, %x : i32
  %b = arith.cmpi ne, %x, %x : i32
  %c = arith.cmpi slt, %x, %x : i32
  %d = arith.cmpi sle, %x, %x : i32
  %e = arith.cmpi sgt, %x, %x : i32
  %f = arith.cmpi uge, %x, %x : i32
  %g = arith.cmpi slt, %cm1, %c3 : i32
  %h = arith.cmpi ult, %cm1, %c3 : i32
  %i = arith.cmpi slt, %c3, %x : i32
  %j = arith.cmpi eq, %c3, %x : i32
  %k = arith.cmpi ne, %c3, %c3 : i32
  %l = arith.cmpi uge, %x, %y : i32
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %j, %k, %l : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// CHECK-LABEL: func.func @select(
// CHECK-SAME:  %[[C:[^:]*]]: i1, %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32
// CHECK-NEXT:  return %[[X]], %[[Y]], %[[X]], %[[C]] : i32, i32, i32, i1
func.func @select(%c: i1, %x: i32, %y: i32) -> (i32, i32, i32, i1) {
  %t = arith.constant true
  %f = arith.constant false
  %a = arith.select %t, %x, %y : i32
  %b = arith.select %f, %x, %y : i32
  %d = arith.select %c, %x, %x : i32
  %e = arith.select %c, %t, %f : i1
  return %a, %b, %d, %e : i32, i32, i32, i1
}

// CHECK-LABEL: func.func @index_cast(
// CHECK-SAME:  %[[X:.*]]: i32
// CHECK-DAG:   %[[CM1:.*]] = arith.constant -1 : index
// CHECK-DAG:   %[[C44:.*]] = arith.constant 44 : i8
// CHECK-DAG:   %[[CM5:.*]] = arith.constant -5 : index
// CHECK-DAG:   %[[C300:.*]] = arith.constant 300 : i64
// CHECK:       return %[[CM5]], %[[C300]], %[[X]], %[[C44]], %[[CM1]] : index, i64, i32, i8, index
func.func @index_cast(%x: i32) -> (index, i64, i32, i8, index) {
  %c = arith.constant -5 : i32
  %a = arith.index_cast %c : i32 to index
  %ci = arith.constant 300 : index
  %b = arith.index_cast %ci : index to i64
  %i = arith.index_cast %x : i32 to index
  %j = arith.index_cast %i : index to i32
  %k = arith.index_cast %ci : index to i8
  %bi = arith.constant -1 : i8
  %l = arith.index_cast %bi : i8 to index
  return %a, %b, %j, %k, %l : index, i64, i32, i8, index
}
