// Pass options in `{...}`: values are parsed and typed, the rest keep their defaults, and
// --dump-pass-pipeline prints every option of the pass in name order.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=3 region-simplify=disabled top-down=false})' --dump-pass-pipeline -o %t 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize{top-down})' | FileCheck %s
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' 2>&1 | FileCheck %s --check-prefix=BADINT
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{no-such=1}))' 2>&1 | FileCheck %s --check-prefix=NOSUCH
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(canonicalize{region-simplify=bogus})' 2>&1 | FileCheck %s --check-prefix=BADENUM
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(canonicalize{top-down=maybe})' 2>&1 | FileCheck %s --check-prefix=BADBOOL
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations})' 2>&1 | FileCheck %s --check-prefix=NOVALUE

// mlir-opt-19 also has the list options disable-patterns/enable-patterns, which print as
// nothing (hence its extra spaces after `{`).
// DUMP:      Pass Manager with 1 passes:
// DUMP-NEXT: builtin.module(canonicalize{{[{] *}}max-iterations=3 max-num-rewrites=-1 region-simplify=disabled test-convergence=false top-down=false})

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    return %arg0

// mlir-opt-19 prints LLVM's option error on its own line, before an empty diagnostic.
// BADINT:      for the --max-iterations option: 'abc' value invalid for long argument!
// BADINT:      failed to add `canonicalize` with options `max-iterations=abc`

// NOSUCH:      <unknown>:0: error: <Pass-Options-Parser>: no such option no-such
// NOSUCH-EMPTY:
// NOSUCH-NEXT: failed to add `canonicalize` with options `no-such=1`
// NOSUCH-NEXT: failed to add `func.func` with options `` to inner pipeline

// BADENUM:     for the --region-simplify option: Cannot find option named 'bogus'!
// BADENUM:     failed to add `canonicalize` with options `region-simplify=bogus`

// BADBOOL:     for the --top-down option: 'maybe' is invalid value for boolean argument! Try 0 or 1
// BADBOOL:     failed to add `canonicalize` with options `top-down=maybe`

// NOVALUE:     for the --max-iterations option: requires a value!
// NOVALUE:     failed to add `canonicalize` with options `max-iterations`

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}
