// Our generic output of ../ops.mlir, read and printed back by mlir-opt-19 (host is an
// unregistered dialect there): the GENERIC lines of ../ops.mlir hold for its output too, so real
// MLIR loads every host op we print.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../ops.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %S/../ops.mlir --check-prefix=GENERIC
// RUN: fuser-opt %S/../kernel.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %S/../kernel.mlir --check-prefix=GENERIC
// RUN: fuser-opt %S/../linear-epilogue.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %S/../linear-epilogue.mlir --check-prefix=GENERIC
// RUN: fuser-opt %S/../canonicalize.mlir --pass-pipeline='builtin.module(func.func(canonicalize))' --split-input-file --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --split-input-file --mlir-print-op-generic | fuser-opt --split-input-file | FileCheck %S/../canonicalize.mlir
