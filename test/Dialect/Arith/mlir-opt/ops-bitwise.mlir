// ../ops-bitwise.mlir prints byte for byte as mlir-opt-19 prints it, in custom and generic form,
// and mlir-opt-19's output passes the same checks.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../ops-bitwise.mlir > %t.ours
// RUN: mlir-opt %S/../ops-bitwise.mlir > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: FileCheck %S/../ops-bitwise.mlir --input-file=%t.theirs
// RUN: fuser-opt %S/../ops-bitwise.mlir --mlir-print-op-generic > %t.ours.generic
// RUN: mlir-opt %S/../ops-bitwise.mlir --mlir-print-op-generic > %t.theirs.generic
// RUN: diff %t.ours.generic %t.theirs.generic
// RUN: FileCheck %S/../ops-bitwise.mlir --check-prefix=GENERIC --input-file=%t.theirs.generic
