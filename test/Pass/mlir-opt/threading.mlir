// The RUN lines of ../threading.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools, and both tools print the same module. mlir-opt-19 prints the dumps of
// a parallel run in the order the threads reach them, so only its sequential run is checked.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../threading.mlir --pass-pipeline='builtin.module(func.func(cse,canonicalize))' -o %t.mlir
// RUN: FileCheck %S/../threading.mlir --input-file=%t.mlir
// RUN: mlir-opt %S/../threading.mlir --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-print-ir-after-all --mlir-disable-threading -o %t 2>&1 | FileCheck %S/../threading.mlir --check-prefix=DUMPS
// RUN: fuser-opt %S/../threading.mlir --pass-pipeline='builtin.module(func.func(cse,canonicalize))' -o %t.fuser
// RUN: diff %t.fuser %t.mlir
