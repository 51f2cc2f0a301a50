// The RUN lines of ../any-anchor.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../any-anchor.mlir --pass-pipeline='builtin.module(any(cse))' | FileCheck %S/../any-anchor.mlir
// RUN: mlir-opt %S/../any-anchor.mlir --pass-pipeline='builtin.module(any(cse))' --dump-pass-pipeline -o %t 2>&1 | FileCheck %S/../any-anchor.mlir --check-prefix=DUMP
