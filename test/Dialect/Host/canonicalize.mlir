// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' --split-input-file | FileCheck %s

// An allocation used only by deallocations is erased with them.
// CHECK-LABEL: func.func @dead_alloc
// CHECK-NEXT: return
func.func @dead_alloc(%n: index) {
  %b = host.alloc(%n) : !host.buf<?x4xf32>
  %p = host.alloc() persistent : !host.buf<4xf32, ipc>
  host.dealloc %b : !host.buf<?x4xf32>
  host.dealloc %p : !host.buf<4xf32, ipc>
  return
}

// -----

// Negative: an allocation that is read (here by a copy, or by a view) stays.
// CHECK-LABEL: func.func @used_alloc
// CHECK-NEXT: %0 = host.alloc() : !host.buf<4xf32>
// CHECK-NEXT: host.copy %arg0, %0
// CHECK-NEXT: host.dealloc %0
// CHECK-NEXT: %1 = host.alloc() : !host.buf<4x4xf32>
// CHECK-NEXT: %2 = host.select %1[%arg1] axis = 0
// CHECK-NEXT: host.copy %2, %arg0
// CHECK-NEXT: return
func.func @used_alloc(%src: !host.buf<4xf32>, %i: index) {
  %b = host.alloc() : !host.buf<4xf32>
  host.copy %src, %b : !host.buf<4xf32>, !host.buf<4xf32>
  host.dealloc %b : !host.buf<4xf32>
  %m = host.alloc() : !host.buf<4x4xf32>
  %row = host.select %m[%i] axis = 0 : !host.buf<4x4xf32> -> !host.view<4xf32, strides = [1]>
  host.copy %row, %src : !host.view<4xf32, strides = [1]>, !host.buf<4xf32>
  return
}

// -----

// A pure view nobody uses is dead code; an unused rank too.
// CHECK-LABEL: func.func @dead_views
// CHECK-NEXT: return
func.func @dead_views(%b: !host.buf<4x8xf32>, %i: index) {
  %v = host.shard_by_stream %b[%i] axis = 0 chunks = 2 : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
  %r = host.rank : index
  return
}

// -----

// Loops whose constant bounds give no iteration are erased, and so are loops with an empty body.
// CHECK-LABEL: func.func @zero_trip
// CHECK-NOT: host.for
// CHECK: return
func.func @zero_trip(%a: !host.buf<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c4 to %c4 step %c1 {
    host.copy %a, %a : !host.buf<4xf32>, !host.buf<4xf32>
  }
  host.for %i = %c4 to %c0 step %c1 {
    host.copy %a, %a : !host.buf<4xf32>, !host.buf<4xf32>
  }
  host.for %i = %c0 to %n step %c1 {
  }
  return
}

// -----

// Negative: a loop with iterations, or with unknown bounds, stays.
// CHECK-LABEL: func.func @loops_that_run
// CHECK: host.for %arg2 = %c0 to %c4 step %c1 {
// CHECK-NEXT: host.copy
// CHECK-NEXT: }
// CHECK-NEXT: host.for %arg2 = %arg1 to %c0 step %c1 {
// CHECK-NEXT: host.copy
// CHECK-NEXT: }
func.func @loops_that_run(%a: !host.buf<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    host.copy %a, %a : !host.buf<4xf32>, !host.buf<4xf32>
  }
  host.for %i = %n to %c0 step %c1 {
    host.copy %a, %a : !host.buf<4xf32>, !host.buf<4xf32>
  }
  return
}

// -----

// host.if on a constant condition becomes the ops of the taken region (nested ops included);
// with a false condition and no else region, nothing is left.
// CHECK-LABEL: func.func @constant_if
// CHECK-NEXT: %0 = host.get_stream %arg1 : !host.stream
// CHECK-NEXT: host.set_stream %0
// CHECK-NEXT: host.for %arg2 = %arg1 to %arg1 step %arg1 {
// CHECK-NEXT: host.synchronize %0
// CHECK-NEXT: }
// CHECK-NEXT: host.copy %arg0, %arg0
// CHECK-NEXT: return
func.func @constant_if(%a: !host.buf<4xf32>, %i: index) {
  %true = arith.constant true
  %false = arith.constant false
  host.if %true {
    %s = host.get_stream %i : !host.stream
    host.set_stream %s
    host.for %k = %i to %i step %i {
      host.synchronize %s
    }
  } else {
    host.dealloc %a : !host.buf<4xf32>
  }
  host.if %false {
    host.dealloc %a : !host.buf<4xf32>
  } else {
    host.copy %a, %a : !host.buf<4xf32>, !host.buf<4xf32>
  }
  host.if %false {
    host.dealloc %a : !host.buf<4xf32>
  }
  return
}

// -----

// Negative: a runtime condition keeps the if; an if with two empty regions is erased.
// CHECK-LABEL: func.func @runtime_if
// CHECK-NEXT: %rank = host.rank : index
// CHECK-NEXT: %0 = arith.cmpi eq, %rank, %arg1 : index
// CHECK-NEXT: host.if %0 {
// CHECK-NEXT: host.copy %arg0, %arg0
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @runtime_if(%a: !host.buf<4xf32>, %root: index) {
  %r = host.rank : index
  %is_root = arith.cmpi eq, %r, %root : index
  host.if %is_root {
    host.copy %a, %a : !host.buf<4xf32>, !host.buf<4xf32>
  }
  host.if %is_root {
  } else {
  }
  return
}
