// The generic form fuser-opt prints for ../ops.mlir, read by mlir-opt-19 and printed back
// generically: real MLIR loads it (comm/host are unregistered there) and prints the same text,
// so the GENERIC lines of ../ops.mlir hold for its output too.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../ops.mlir --allow-unregistered-dialect --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %S/../ops.mlir --check-prefix=GENERIC
// RUN: fuser-opt %S/../ops.mlir --allow-unregistered-dialect --mlir-print-op-generic -o %t.ours
// RUN: mlir-opt %t.ours --allow-unregistered-dialect --mlir-print-op-generic -o %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: fuser-opt %S/../canonicalize.mlir --allow-unregistered-dialect --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | fuser-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize)' | FileCheck %S/../canonicalize.mlir
