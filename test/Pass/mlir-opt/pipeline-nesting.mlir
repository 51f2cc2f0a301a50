// The RUN lines of ../pipeline-nesting.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../pipeline-nesting.mlir --pass-pipeline='builtin.module(func.func(cse))' | FileCheck %S/../pipeline-nesting.mlir --check-prefix=FUNC
// RUN: mlir-opt %S/../pipeline-nesting.mlir --pass-pipeline='builtin.module(builtin.module(func.func(cse)))' | FileCheck %S/../pipeline-nesting.mlir --check-prefix=INNER
// RUN: mlir-opt %S/../pipeline-nesting.mlir --pass-pipeline='builtin.module(cse)' | FileCheck %S/../pipeline-nesting.mlir --check-prefix=ALL
