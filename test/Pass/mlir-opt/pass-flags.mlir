// The RUN lines of ../pass-flags.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../pass-flags.mlir --cse --canonicalize | FileCheck %S/../pass-flags.mlir
// RUN: mlir-opt %S/../pass-flags.mlir --cse --canonicalize='max-iterations=3 top-down=false' --dump-pass-pipeline -o %t 2>&1 | FileCheck %S/../pass-flags.mlir --check-prefix=DUMP
