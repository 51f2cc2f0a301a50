// The RUN lines of ../print-ir-after-all.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../print-ir-after-all.mlir --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %S/../print-ir-after-all.mlir
// RUN: mlir-opt %S/../print-ir-after-all.mlir --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-after-all --mlir-disable-threading -o %t 2>&1 | FileCheck %S/../print-ir-after-all.mlir
