// RUN: fuser-opt --no-implicit-module --allow-unregistered-dialect --mlir-print-skip-regions --split-input-file %s | FileCheck %s
// RUN: fuser-opt --no-implicit-module --allow-unregistered-dialect --mlir-print-skip-regions --mlir-print-op-generic %s --split-input-file | FileCheck %s --check-prefix=GENERIC

// --mlir-print-skip-regions prints every region (empty ones too) as {...}; what is inside adds
// no alias. Checked against mlir-opt-19.

// CHECK: #map = affine_map<(d0) -> (d0 * 2)>
// CHECK-NOT: #map1
// CHECK: "t.wrap"() ({...}, {...}) {m = #map} : () -> ()
// GENERIC: "t.wrap"() ({...}, {...}) {m = #map} : () -> ()
"t.wrap"() ({
  "t.use"() {m = affine_map<(d0) -> (d0 + 1)>} : () -> ()
}, {
}) {m = affine_map<(d0) -> (d0 * 2)>} : () -> ()

// -----

// CHECK: func.func @foo(%arg0: i32) -> i32 {...}
// GENERIC: "func.func"() <{function_type = (i32) -> i32, sym_name = "foo"}> ({...}) : () -> ()
func.func @foo(%arg0: i32) -> i32 {
  return %arg0 : i32
}
