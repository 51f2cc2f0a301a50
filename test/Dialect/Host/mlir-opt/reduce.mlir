// Our generic output of ../reduce.mlir, read and printed back by mlir-opt-19 (host is an
// unregistered dialect there): the GENERIC lines of ../reduce.mlir hold for its output too.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../reduce.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %S/../reduce.mlir --check-prefix=GENERIC
