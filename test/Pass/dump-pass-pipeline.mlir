// --dump-pass-pipeline prints the whole pipeline (to stderr) before running it, with
// `,` between passes (no spaces), and all options spelled out.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce,builtin.module(cse))' --dump-pass-pipeline -o %t 2>&1 | FileCheck %s
// RUN: fuser-opt %s --cse --symbol-dce --dump-pass-pipeline -o %t 2>&1 | FileCheck %s --check-prefix=FLAGS
// RUN: fuser-opt %s --dump-pass-pipeline -o %t 2>&1 | FileCheck %s --check-prefix=EMPTY

// CHECK:      Pass Manager with 3 passes:
// CHECK-NEXT: builtin.module(func.func(cse,canonicalize{{[{] *}}max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}),symbol-dce,builtin.module(cse))
// CHECK-EMPTY:

// FLAGS:      Pass Manager with 2 passes:
// FLAGS-NEXT: builtin.module(cse,symbol-dce)

// EMPTY:      Pass Manager with 0 passes:
// EMPTY-NEXT: builtin.module()

func.func @f() {
  return
}
