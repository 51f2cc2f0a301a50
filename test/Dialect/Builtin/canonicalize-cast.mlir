// RUN: fuser-opt %s --canonicalize | FileCheck %s

// builtin.unrealized_conversion_cast folds as in mlir-opt-19: a cast back through a cast of all
// of its results gives the first cast's operands; a cast to its own types is its operands.

// CHECK-LABEL: func.func @round_trip(%arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:    return %arg0, %arg1 : i32, i32
func.func @round_trip(%arg0: i32, %arg1: i32) -> (i32, i32) {
  %inputs:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : i32, i32 to i64, i64
  %outputs:2 = builtin.unrealized_conversion_cast %inputs#0, %inputs#1 : i64, i64 to i32, i32
  return %outputs#0, %outputs#1 : i32, i32
}

// CHECK-LABEL: func.func @identity(%arg0: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32
func.func @identity(%arg0: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %arg0 : i32 to i32
  return %0 : i32
}

// Not all results of the first cast, or not in order: both casts stay.
// CHECK-LABEL: func.func @partial(
// CHECK-NEXT:    %0:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : i32, i32 to i64, i64
// CHECK-NEXT:    %1:2 = builtin.unrealized_conversion_cast %arg2, %0#1 : i64, i64 to i32, i32
// CHECK-NEXT:    %2:2 = builtin.unrealized_conversion_cast %0#1, %0#0 : i64, i64 to i32, i32
func.func @partial(%arg0: i32, %arg1: i32, %arg2: i64) -> (i32, i32, i32) {
  %inputs:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : i32, i32 to i64, i64
  %outputs:2 = builtin.unrealized_conversion_cast %arg2, %inputs#1 : i64, i64 to i32, i32
  %swapped:2 = builtin.unrealized_conversion_cast %inputs#1, %inputs#0 : i64, i64 to i32, i32
  return %outputs#0, %outputs#1, %swapped#0 : i32, i32, i32
}
