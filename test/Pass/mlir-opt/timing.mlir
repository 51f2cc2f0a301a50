// The RUN lines of ../timing.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../timing.mlir --pass-pipeline='builtin.module(func.func(cse,canonicalize),cse)' --mlir-timing -o %t 2>&1 | FileCheck %S/../timing.mlir
// RUN: mlir-opt %S/../timing.mlir --pass-pipeline='builtin.module(func.func(cse,canonicalize),cse)' --mlir-timing --mlir-disable-threading -o %t 2>&1 | FileCheck %S/../timing.mlir --check-prefix=SEQ
