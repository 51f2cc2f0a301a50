// mlir-opt-19 reports exactly the diagnostics that ../invalid-float.mlir expects of fuser-opt.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../invalid-float.mlir -split-input-file -verify-diagnostics
