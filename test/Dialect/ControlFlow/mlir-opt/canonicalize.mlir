// fuser-opt canonicalizes ../canonicalize.mlir byte for byte as mlir-opt-19 does, and
// mlir-opt-19's output passes the same checks.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../canonicalize.mlir --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(canonicalize))' > %t.ours
// RUN: mlir-opt %S/../canonicalize.mlir --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(canonicalize))' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: FileCheck %S/../canonicalize.mlir --input-file=%t.theirs
