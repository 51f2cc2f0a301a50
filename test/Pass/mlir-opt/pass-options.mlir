// The RUN lines of ../pass-options.mlir with mlir-opt-19 in place of fuser-opt: the CHECK lines there
// hold for both tools.

// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../pass-options.mlir --pass-pipeline='builtin.module(canonicalize{max-iterations=3 region-simplify=disabled top-down=false})' --dump-pass-pipeline -o %t 2>&1 | FileCheck %S/../pass-options.mlir --check-prefix=DUMP
// RUN: mlir-opt %S/../pass-options.mlir --pass-pipeline='builtin.module(canonicalize{top-down})' | FileCheck %S/../pass-options.mlir
// RUN: not mlir-opt %S/../pass-options.mlir --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' 2>&1 | FileCheck %S/../pass-options.mlir --check-prefix=BADINT
// RUN: not mlir-opt %S/../pass-options.mlir --pass-pipeline='builtin.module(func.func(canonicalize{no-such=1}))' 2>&1 | FileCheck %S/../pass-options.mlir --check-prefix=NOSUCH
// RUN: not mlir-opt %S/../pass-options.mlir --pass-pipeline='builtin.module(canonicalize{region-simplify=bogus})' 2>&1 | FileCheck %S/../pass-options.mlir --check-prefix=BADENUM
// RUN: not mlir-opt %S/../pass-options.mlir --pass-pipeline='builtin.module(canonicalize{top-down=maybe})' 2>&1 | FileCheck %S/../pass-options.mlir --check-prefix=BADBOOL
// RUN: not mlir-opt %S/../pass-options.mlir --pass-pipeline='builtin.module(canonicalize{max-iterations})' 2>&1 | FileCheck %S/../pass-options.mlir --check-prefix=NOVALUE
