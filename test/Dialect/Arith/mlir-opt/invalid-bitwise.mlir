// mlir-opt-19 reports exactly the diagnostics that ../invalid-bitwise.mlir expects of fuser-opt.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../invalid-bitwise.mlir -split-input-file -verify-diagnostics
