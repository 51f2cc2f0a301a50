// mlir-opt-19 reports ../invalid-generic-props.mlir as that test expects of fuser-opt.

// REQUIRES: mlir-opt
// RUN: not mlir-opt %S/../invalid-generic-props.mlir 2>&1 | FileCheck %S/../invalid-generic-props.mlir
