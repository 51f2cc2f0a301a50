// The RUN lines of ../print-ir-before-after.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../print-ir-before-after.mlir --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-before=cse --mlir-print-ir-after=canonicalize -o %t 2>&1 | FileCheck %S/../print-ir-before-after.mlir
// RUN: mlir-opt %S/../print-ir-before-after.mlir --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-before-all -o %t 2>&1 | FileCheck %S/../print-ir-before-after.mlir --check-prefix=BEFORE
