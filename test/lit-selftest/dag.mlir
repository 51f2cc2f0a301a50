// Self-test of the lit harness: CHECK-DAG follows LLVM FileCheck: patterns of a group
// match in order, may use variables defined by earlier ones, and must not overlap.
// RUN: cat %s | FileCheck %s
// RUN: cat %s | not FileCheck %s --check-prefix=OVERLAP
// RUN: cat %s | FileCheck %s --check-prefix=TWICE

// data: %c1 = arith.constant 1 : index
// data: %c2 = arith.constant 2 : index
// data: %s = arith.addi %c2, %c1 : index

// CHECK-DAG: {{^}}// data: %[[ONE:.*]] = arith.constant 1
// CHECK-DAG: {{^}}// data: %[[TWO:.*]] = arith.constant 2
// CHECK-DAG: {{^}}// data: %{{.*}} = arith.addi %[[TWO]], %[[ONE]]
// CHECK-NOT: {{^}}// data: {{.*}}arith.muli

// Two DAG patterns cannot both claim the one "arith.addi" line.
// OVERLAP-DAG: {{^}}// data: {{.*}} = arith.addi
// OVERLAP-DAG: {{^}}// data: {{.*}} = arith.addi

// But two "arith.constant" lines satisfy two identical patterns.
// TWICE-DAG: {{^}}// data: {{.*}} = arith.constant
// TWICE-DAG: {{^}}// data: {{.*}} = arith.constant
