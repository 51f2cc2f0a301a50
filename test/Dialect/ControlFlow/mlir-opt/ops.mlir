// fuser-opt prints ../ops.mlir byte for byte as mlir-opt-19 does, in custom and generic form.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../ops.mlir > %t.ours
// RUN: mlir-opt %S/../ops.mlir > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: fuser-opt %S/../ops.mlir --mlir-print-op-generic > %t.ours.g
// RUN: mlir-opt %S/../ops.mlir --mlir-print-op-generic > %t.theirs.g
// RUN: diff %t.ours.g %t.theirs.g
