// RUN: not fuser-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not fuser-opt --allow-unregistered-dialect --split-input-file --mlir-print-op-on-diagnostic %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not fuser-opt --allow-unregistered-dialect --split-input-file --mlir-print-op-on-diagnostic=false %s 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not fuser-opt --allow-unregistered-dialect --split-input-file --mlir-print-op-on-diagnostic=0 --mlir-print-op-generic %s 2>&1 | FileCheck %s --check-prefix=OFF

// --mlir-print-op-on-diagnostic (default true) attaches the op an error is about, in generic
// form, as a "see current operation" note; =false leaves the note out (other notes stay).
// Every CHECK line is mlir-opt-19's output.

// DEFAULT: within split at {{.*}}print-op-on-diagnostic.mlir:1 offset :58:3: error: type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f
// DEFAULT-NEXT:   return %0 : i32
// DEFAULT-NEXT:   ^
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:1 offset :58:3: note: see current operation: "func.return"(%0) : (i32) -> ()
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:61 offset :3:1: error: 'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')
// DEFAULT-NEXT: "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
// DEFAULT-NEXT: ^
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:61 offset :3:1: note: see current operation:
// DEFAULT-NEXT: "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
// DEFAULT-NEXT: ^bb0(%arg0: i64):
// DEFAULT-NEXT:   %0 = "test.cast"(%arg0) : (i64) -> i32
// DEFAULT-NEXT:   "func.return"(%0) : (i32) -> ()
// DEFAULT-NEXT: }) : () -> ()
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:69 offset :8:8: error: operand #0 does not dominate this use
// DEFAULT-NEXT:   %2 = arith.addi %3, %1 : i32
// DEFAULT-NEXT:        ^
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:69 offset :8:8: note: see current operation: %2 = "arith.addi"(%3, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:69 offset :9:8: note: operand defined here (op in the same block)
// DEFAULT-NEXT:   %3 = arith.addi %2, %1 : i32
// DEFAULT-NEXT:        ^
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:81 offset :5:14: error: use of value '%0' expects different type than prior uses: 'i1' vs 'i32'
// DEFAULT-NEXT:   cf.cond_br %0, ^bb1, ^bb1
// DEFAULT-NEXT:              ^
// DEFAULT-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:81 offset :4:3: note: prior use here
// DEFAULT-NEXT:   %0 = "test.x"() : () -> i32
// DEFAULT-NEXT:   ^

// OFF: within split at {{.*}}print-op-on-diagnostic.mlir:1 offset :58:3: error: type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f
// OFF-NEXT:   return %0 : i32
// OFF-NEXT:   ^
// OFF-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:61 offset :3:1: error: 'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')
// OFF-NEXT: "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
// OFF-NEXT: ^
// OFF-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:69 offset :8:8: error: operand #0 does not dominate this use
// OFF-NEXT:   %2 = arith.addi %3, %1 : i32
// OFF-NEXT:        ^
// OFF-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:69 offset :9:8: note: operand defined here (op in the same block)
// OFF-NEXT:   %3 = arith.addi %2, %1 : i32
// OFF-NEXT:        ^
// OFF-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:81 offset :5:14: error: use of value '%0' expects different type than prior uses: 'i1' vs 'i32'
// OFF-NEXT:   cf.cond_br %0, ^bb1, ^bb1
// OFF-NEXT:              ^
// OFF-NEXT: within split at {{.*}}print-op-on-diagnostic.mlir:81 offset :4:3: note: prior use here
// OFF-NEXT:   %0 = "test.x"() : () -> i32
// OFF-NEXT:   ^

func.func @f(%a: i32) -> i64 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

"func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
^bb0(%x: i64):
  %0 = "test.cast"(%x) : (i64) -> i32
  "func.return"(%0) : (i32) -> ()
}) : () -> ()

// -----

func.func @h() {
  %0 = arith.constant 1 : i32
  %1 = "test.pass"(%0) : (i32) -> i32
  cf.br ^bb1
^bb1:
  %2 = arith.addi %3, %1 : i32
  %3 = arith.addi %2, %1 : i32
  return
}

// -----

func.func @k() {
  %0 = "test.x"() : () -> i32
  cf.cond_br %0, ^bb1, ^bb1
^bb1:
  return
}
