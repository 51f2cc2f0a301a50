// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @add(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    return %0 : i32
// GENERIC-LABEL: "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "add"}> ({
// GENERIC-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32):
// GENERIC:         "func.return"(%{{.*}}) : (i32) -> ()
func.func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  func.return %0 : i32
}

// CHECK-LABEL: func.func private @decl(i32, index) -> i32
// GENERIC: "func.func"() <{function_type = (i32, index) -> i32, sym_name = "decl", sym_visibility = "private"}> ({
// GENERIC-NEXT: }) : () -> ()
func.func private @decl(i32, index) -> i32

// CHECK-LABEL: func.func private @decl_attrs(i32 {test.arg}, i64) -> (i32 {test.res})
// GENERIC: <{arg_attrs = [{test.arg}, {}], function_type = (i32, i64) -> i32, res_attrs = [{test.res}], sym_name = "decl_attrs", sym_visibility = "private"}>
func.func private @decl_attrs(i32 {test.arg}, i64) -> (i32 {test.res})

// CHECK-LABEL: func.func private @returns_function() -> ((i32) -> i32)
func.func private @returns_function() -> ((i32) -> i32)

// CHECK-LABEL: func.func private @no_results(i32)
func.func private @no_results(i32) -> ()

// CHECK-LABEL: func.func private @"quoted name"()
func.func private @"quoted name"()

// CHECK-LABEL: func.func nested @nested_vis(%arg0: i32 {test.a, test.b = 2 : i64}) attributes {test.fn} {
// GENERIC: <{arg_attrs = [{test.a, test.b = 2 : i64}], function_type = (i32) -> (), sym_name = "nested_vis", sym_visibility = "nested"}>
// GENERIC: }) {test.fn} : () -> ()
func.func nested @nested_vis(%x: i32 {test.b = 2, test.a}) attributes {test.fn} {
  return
}

// CHECK-LABEL: func.func public @explicit_public() {
// GENERIC: sym_name = "explicit_public", sym_visibility = "public"
func.func public @explicit_public() {
  return
}

// CHECK-LABEL: func.func @multi(%arg0: i32, %arg1: index) -> (i32, index) {
// CHECK-NEXT:    %0 = call @add(%arg0, %arg0) : (i32, i32) -> i32
// CHECK-NEXT:    %1 = call @decl(%0, %arg1) {test.tag} : (i32, index) -> i32
// CHECK-NEXT:    call @no_results(%1) : (i32) -> ()
// CHECK-NEXT:    return %1, %arg1 : i32, index
// GENERIC: "func.call"(%[[GA:.*]], %[[GA]]) <{callee = @add}> : (i32, i32) -> i32
// GENERIC: "func.call"(%{{.*}}, %[[GI:.*]]) <{callee = @decl}> {test.tag} : (i32, index) -> i32
// GENERIC: "func.return"(%{{.*}}, %[[GI]]) : (i32, index) -> ()
func.func @multi(%a: i32, %i: index) -> (i32, index) {
  %0 = func.call @add(%a, %a) : (i32, i32) -> i32
  %1 = call @decl(%0, %i) {test.tag} : (i32, index) -> i32
  call @no_results(%1) : (i32) -> ()
  return %1, %i : i32, index
}

// CHECK-LABEL: func.func @return_attrs() {
// CHECK-NEXT:    return {test.r}
func.func @return_attrs() {
  return {test.r}
}
