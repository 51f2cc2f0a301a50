// ../ops-int-extra.mlir prints byte for byte as mlir-opt-19 prints it, in custom and generic form,
// and mlir-opt-19's output passes the same checks.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../ops-int-extra.mlir > %t.ours
// RUN: mlir-opt %S/../ops-int-extra.mlir > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: FileCheck %S/../ops-int-extra.mlir --input-file=%t.theirs
// RUN: fuser-opt %S/../ops-int-extra.mlir --mlir-print-op-generic > %t.ours.generic
// RUN: mlir-opt %S/../ops-int-extra.mlir --mlir-print-op-generic > %t.theirs.generic
// RUN: diff %t.ours.generic %t.theirs.generic
// RUN: FileCheck %S/../ops-int-extra.mlir --check-prefix=GENERIC --input-file=%t.theirs.generic
