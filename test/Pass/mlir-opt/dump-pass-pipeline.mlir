// The RUN lines of ../dump-pass-pipeline.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../dump-pass-pipeline.mlir --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce,builtin.module(cse))' --dump-pass-pipeline -o %t 2>&1 | FileCheck %S/../dump-pass-pipeline.mlir
// RUN: mlir-opt %S/../dump-pass-pipeline.mlir --cse --symbol-dce --dump-pass-pipeline -o %t 2>&1 | FileCheck %S/../dump-pass-pipeline.mlir --check-prefix=FLAGS
// RUN: mlir-opt %S/../dump-pass-pipeline.mlir --dump-pass-pipeline -o %t 2>&1 | FileCheck %S/../dump-pass-pipeline.mlir --check-prefix=EMPTY
