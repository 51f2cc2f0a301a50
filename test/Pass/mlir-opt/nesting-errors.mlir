// The RUN lines of ../nesting-errors.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: not mlir-opt %S/../nesting-errors.mlir --pass-pipeline='builtin.module(func.func(func.return(cse)))' --mlir-disable-threading 2>&1 | FileCheck %S/../nesting-errors.mlir
// RUN: not mlir-opt %S/../nesting-errors.mlir --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %S/../nesting-errors.mlir --check-prefix=ANCHOR
