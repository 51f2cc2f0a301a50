// The RUN lines of ../crash-reproducer.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: not mlir-opt %S/../crash-reproducer.mlir --pass-pipeline='builtin.module(func.func(cse),canonicalize{test-convergence max-iterations=1})' --mlir-pass-pipeline-crash-reproducer=%t.repro -o %t 2>&1 | FileCheck %S/../crash-reproducer.mlir --check-prefix=DIAG
// RUN: FileCheck %S/../crash-reproducer.mlir --input-file=%t.repro
