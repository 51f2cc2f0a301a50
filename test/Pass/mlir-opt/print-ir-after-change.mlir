// The RUN lines of ../print-ir-after-change.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../print-ir-after-change.mlir --pass-pipeline='builtin.module(func.func(cse,cse,canonicalize))' --mlir-print-ir-after-all --mlir-print-ir-after-change -o %t 2>&1 | FileCheck %S/../print-ir-after-change.mlir
