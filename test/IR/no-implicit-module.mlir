// RUN: fuser-opt --no-implicit-module --split-input-file --verify-diagnostics %s | FileCheck %s

// --no-implicit-module: the source's single top-level op is the root, whatever it is; any
// other number of top-level ops is an error at file:0:0 (mlir-opt-19's messages).

// CHECK-NOT: module
// CHECK: func.func private @foo()
func.func private @foo()

// -----

// expected-error@-3 {{source must contain a single top-level operation, found: 2}}
func.func private @bar()
func.func private @baz()

// -----

// expected-error@-3 {{source must contain a single top-level operation, found: 0}}

// -----

// CHECK: module @explicit {
// CHECK-NEXT: }
module @explicit {
}
