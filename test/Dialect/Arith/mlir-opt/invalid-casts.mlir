// mlir-opt-19 reports exactly the diagnostics that ../invalid-casts.mlir expects of fuser-opt.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../invalid-casts.mlir -split-input-file -verify-diagnostics
