// fuser-opt canonicalizes ../fold-wide-int.mlir byte for byte as mlir-opt-19 does, and
// mlir-opt-19's output passes the same checks.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../fold-wide-int.mlir --pass-pipeline='builtin.module(canonicalize)' > %t.ours
// RUN: mlir-opt %S/../fold-wide-int.mlir --pass-pipeline='builtin.module(canonicalize)' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: FileCheck %S/../fold-wide-int.mlir --input-file=%t.theirs
