// Self-test of the lit harness: the file is its own FileCheck input.
// Data lines are comments starting with "// data:"; checks anchor on them with {{^}},
// so a CHECK line never matches itself.
// RUN: cat %s | FileCheck %s
// RUN: FileCheck %s --input-file %s
// RUN: FileCheck %s < %s

// data: func @first
// data:   %0 = "fz.add"(%a, %a)
// data:   return %0
// data: func @second
// data:   %1 = "fz.mul"(%b, %c) ; tail

// CHECK-LABEL: {{^}}// data: func @first
// CHECK-NEXT:  {{^}}// data: %[[R:[0-9]+]] = "fz.add"(%[[A:[a-z]+]], %[[A]])
// CHECK-NEXT:  {{^}}// data: return %[[R]]
// CHECK-NOT:   fz.sub
// CHECK-LABEL: {{^}}// data: func @second
// CHECK:       "fz.mul"(%b,
// CHECK-SAME:  %c)
// CHECK-SAME:  ; tail
