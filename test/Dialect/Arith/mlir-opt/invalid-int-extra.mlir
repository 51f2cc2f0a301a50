// mlir-opt-19 reports exactly the diagnostics that ../invalid-int-extra.mlir expects of fuser-opt.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../invalid-int-extra.mlir -split-input-file -verify-diagnostics
