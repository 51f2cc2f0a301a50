// The RUN lines of ../print-ir-after-failure.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: not mlir-opt %S/../print-ir-after-failure.mlir --pass-pipeline='builtin.module(func.func(cse),canonicalize{test-convergence max-iterations=1})' --mlir-print-ir-after-failure -o %t 2>&1 | FileCheck %S/../print-ir-after-failure.mlir
