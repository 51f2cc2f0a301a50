// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-value-users %s | FileCheck %s
// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-value-users --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt --allow-unregistered-dialect --mlir-print-value-users --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=LOC

// --mlir-print-value-users: after each op ` // id: %N` (no results, some operands; the op takes
// a value number), ` // unused`, or ` // user: `/` // users: ` with the users of each result
// (parenthesized per result when there are several, `(unused)` for an unused one); a user is
// named by all its results, or by its id. Users are listed most recent use first; the uses a
// forward reference made come in source order (@fwd). Each block argument gets a
// `// %x is used by ...` / `// %x is unused` line at the indentation of the block's ops, also
// when the block label is not printed. Every CHECK line is mlir-opt-19's output.

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     // %arg0 is used by %5, %3
// CHECK-NEXT:     // %arg1 is unused
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32 // user: %3
// CHECK-NEXT:     %3 = arith.addi %arg0, %c0_i32 : i32 // user: %4
// CHECK-NEXT:     %4 = arith.addi %3, %3 : i32 // user: %5
// CHECK-NEXT:     %5 = arith.muli %4, %arg0 : i32 // users: %8#0, %8#1, %7, %6
// CHECK-NEXT:     "test.foo"(%5) : (i32) -> () // id: %6
// CHECK-NEXT:     "test.bar"(%5, %5) : (i32, i32) -> () // id: %7
// CHECK-NEXT:     %8:2 = "test.two"(%5) : (i32) -> (i32, i32) // users: (%9), (%9)
// CHECK-NEXT:     %9 = arith.addi %8#1, %8#0 : i32 // users: %15, %10#0, %10#1, %10#2
// CHECK-NEXT:     %10:3 = "test.three"(%9) : (i32) -> (i32, i32, i32) // users: (%12), (unused), (%11)
// CHECK-NEXT:     "test.sink"(%10#2) : (i32) -> () // id: %11
// CHECK-NEXT:     %12 = "test.one"(%10#0) : (i32) -> i32 // users: %13#0, %13#1
// CHECK-NEXT:     %13:2 = "test.pair"(%12) : (i32) -> (i32, i32) // users: (%15), (unused)
// CHECK-NEXT:     "test.nothing"() : () -> ()
// CHECK-NEXT:     cf.br ^bb1(%9, %13#0 : i32, i32) // id: %15
// CHECK-NEXT:   ^bb1(%16: i32, %17: i32):  // pred: ^bb0
// CHECK-NEXT:     // %16 is used by %18, %23, %20
// CHECK-NEXT:     // %17 is unused
// CHECK-NEXT:     %18 = "test.region"(%16) ({
// CHECK-NEXT:     ^bb0(%arg2: i32):
// CHECK-NEXT:       // %arg2 is used by %20
// CHECK-NEXT:       %20 = arith.addi %arg2, %16 : i32 // user: %21
// CHECK-NEXT:       "test.yield"(%20) : (i32) -> () // id: %21
// CHECK-NEXT:     ^bb1(%22: i32):  // no predecessors
// CHECK-NEXT:       // %22 is unused
// CHECK-NEXT:       "test.yield"(%16) : (i32) -> () // id: %23
// CHECK-NEXT:     }) : (i32) -> i32 // user: %19
// CHECK-NEXT:     return %18 : i32 // id: %19
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @fwd(%arg0: i32) -> i32 {
// CHECK-NEXT:     // %arg0 is used by %7
// CHECK-NEXT:     cf.br ^bb2
// CHECK-NEXT:   ^bb1:  // pred: ^bb2
// CHECK-NEXT:     %4 = arith.addi %7, %7 : i32 // user: %6
// CHECK-NEXT:     "test.sink"(%7) : (i32) -> () // id: %5
// CHECK-NEXT:     return %4 : i32 // id: %6
// CHECK-NEXT:   ^bb2:  // pred: ^bb0
// CHECK-NEXT:     %7 = arith.addi %arg0, %arg0 : i32 // users: %8, %4, %5
// CHECK-NEXT:     "test.sink2"(%7) : (i32) -> () // id: %8
// CHECK-NEXT:     cf.br ^bb1
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @decl(i32) -> i32
// CHECK-NEXT: }

// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "f"}> ({
// GENERIC-NEXT:   ^bb0(%arg1: i32, %arg2: i32):
// GENERIC-NEXT:     // %arg1 is used by %14, %12
// GENERIC-NEXT:     // %arg2 is unused
// GENERIC-NEXT:     %11 = "arith.constant"() <{value = 0 : i32}> : () -> i32 // user: %12
// GENERIC-NEXT:     %12 = "arith.addi"(%arg1, %11) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 // user: %13
// GENERIC-NEXT:     %13 = "arith.addi"(%12, %12) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 // user: %14
// GENERIC-NEXT:     %14 = "arith.muli"(%13, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 // users: %17#0, %17#1, %16, %15
// GENERIC-NEXT:     "test.foo"(%14) : (i32) -> () // id: %15
// GENERIC-NEXT:     "test.bar"(%14, %14) : (i32, i32) -> () // id: %16
// GENERIC-NEXT:     %17:2 = "test.two"(%14) : (i32) -> (i32, i32) // users: (%18), (%18)
// GENERIC-NEXT:     %18 = "arith.addi"(%17#1, %17#0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 // users: %24, %19#0, %19#1, %19#2
// GENERIC-NEXT:     %19:3 = "test.three"(%18) : (i32) -> (i32, i32, i32) // users: (%21), (unused), (%20)
// GENERIC-NEXT:     "test.sink"(%19#2) : (i32) -> () // id: %20
// GENERIC-NEXT:     %21 = "test.one"(%19#0) : (i32) -> i32 // users: %22#0, %22#1
// GENERIC-NEXT:     %22:2 = "test.pair"(%21) : (i32) -> (i32, i32) // users: (%24), (unused)
// GENERIC-NEXT:     "test.nothing"() : () -> ()
// GENERIC-NEXT:     "cf.br"(%18, %22#0)[^bb1] : (i32, i32) -> () // id: %24
// GENERIC-NEXT:   ^bb1(%25: i32, %26: i32):  // pred: ^bb0
// GENERIC-NEXT:     // %25 is used by %27, %32, %29
// GENERIC-NEXT:     // %26 is unused
// GENERIC-NEXT:     %27 = "test.region"(%25) ({
// GENERIC-NEXT:     ^bb0(%arg3: i32):
// GENERIC-NEXT:       // %arg3 is used by %29
// GENERIC-NEXT:       %29 = "arith.addi"(%arg3, %25) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 // user: %30
// GENERIC-NEXT:       "test.yield"(%29) : (i32) -> () // id: %30
// GENERIC-NEXT:     ^bb1(%31: i32):  // no predecessors
// GENERIC-NEXT:       // %31 is unused
// GENERIC-NEXT:       "test.yield"(%25) : (i32) -> () // id: %32
// GENERIC-NEXT:     }) : (i32) -> i32 // user: %28
// GENERIC-NEXT:     "func.return"(%27) : (i32) -> () // id: %28
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (i32) -> i32, sym_name = "fwd"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: i32):
// GENERIC-NEXT:     // %arg0 is used by %8
// GENERIC-NEXT:     "cf.br"()[^bb2] : () -> ()
// GENERIC-NEXT:   ^bb1:  // pred: ^bb2
// GENERIC-NEXT:     %5 = "arith.addi"(%8, %8) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 // user: %7
// GENERIC-NEXT:     "test.sink"(%8) : (i32) -> () // id: %6
// GENERIC-NEXT:     "func.return"(%5) : (i32) -> () // id: %7
// GENERIC-NEXT:   ^bb2:  // pred: ^bb0
// GENERIC-NEXT:     %8 = "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 // users: %9, %5, %6
// GENERIC-NEXT:     "test.sink2"(%8) : (i32) -> () // id: %9
// GENERIC-NEXT:     "cf.br"()[^bb1] : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (i32) -> i32, sym_name = "decl", sym_visibility = "private"}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

// LOC: module {
// LOC-NEXT:   func.func @f(%arg0: i32 loc("{{.*}}print-value-users.mlir":157:14), %arg1: i32 loc("{{.*}}print-value-users.mlir":157:23)) -> i32 {
// LOC-NEXT:     // %arg0 is used by %5, %3
// LOC-NEXT:     // %arg1 is unused
// LOC-NEXT:     %c0_i32 = arith.constant 0 : i32 loc("{{.*}}print-value-users.mlir":158:9) // user: %3
// LOC-NEXT:     %3 = arith.addi %arg0, %c0_i32 : i32 loc("{{.*}}print-value-users.mlir":159:8) // user: %4
// LOC-NEXT:     %4 = arith.addi %3, %3 : i32 loc("{{.*}}print-value-users.mlir":160:8) // user: %5
// LOC-NEXT:     %5 = arith.muli %4, %arg0 : i32 loc("{{.*}}print-value-users.mlir":161:8) // users: %8#0, %8#1, %7, %6
// LOC-NEXT:     "test.foo"(%5) : (i32) -> () loc("{{.*}}print-value-users.mlir":162:3) // id: %6
// LOC-NEXT:     "test.bar"(%5, %5) : (i32, i32) -> () loc("{{.*}}print-value-users.mlir":163:3) // id: %7
// LOC-NEXT:     %8:2 = "test.two"(%5) : (i32) -> (i32, i32) loc("{{.*}}print-value-users.mlir":164:10) // users: (%9), (%9)
// LOC-NEXT:     %9 = arith.addi %8#1, %8#0 : i32 loc("{{.*}}print-value-users.mlir":165:8) // users: %15, %10#0, %10#1, %10#2
// LOC-NEXT:     %10:3 = "test.three"(%9) : (i32) -> (i32, i32, i32) loc("{{.*}}print-value-users.mlir":166:10) // users: (%12), (unused), (%11)
// LOC-NEXT:     "test.sink"(%10#2) : (i32) -> () loc("{{.*}}print-value-users.mlir":167:3) // id: %11
// LOC-NEXT:     %12 = "test.one"(%10#0) : (i32) -> i32 loc("{{.*}}print-value-users.mlir":168:8) // users: %13#0, %13#1
// LOC-NEXT:     %13:2 = "test.pair"(%12) : (i32) -> (i32, i32) loc("{{.*}}print-value-users.mlir":169:10) // users: (%15), (unused)
// LOC-NEXT:     "test.nothing"() : () -> () loc("{{.*}}print-value-users.mlir":170:3)
// LOC-NEXT:     cf.br ^bb1(%9, %13#0 : i32, i32) loc("{{.*}}print-value-users.mlir":171:3) // id: %15
// LOC-NEXT:   ^bb1(%16: i32 loc("{{.*}}print-value-users.mlir":172:6), %17: i32 loc("{{.*}}print-value-users.mlir":172:15)):  // pred: ^bb0
// LOC-NEXT:     // %16 is used by %18, %23, %20
// LOC-NEXT:     // %17 is unused
// LOC-NEXT:     %18 = "test.region"(%16) ({
// LOC-NEXT:     ^bb0(%arg2: i32 loc("{{.*}}print-value-users.mlir":174:8)):
// LOC-NEXT:       // %arg2 is used by %20
// LOC-NEXT:       %20 = arith.addi %arg2, %16 : i32 loc("{{.*}}print-value-users.mlir":175:10) // user: %21
// LOC-NEXT:       "test.yield"(%20) : (i32) -> () loc("{{.*}}print-value-users.mlir":176:5) // id: %21
// LOC-NEXT:     ^bb1(%22: i32 loc("{{.*}}print-value-users.mlir":177:8)):  // no predecessors
// LOC-NEXT:       // %22 is unused
// LOC-NEXT:       "test.yield"(%16) : (i32) -> () loc("{{.*}}print-value-users.mlir":178:5) // id: %23
// LOC-NEXT:     }) : (i32) -> i32 loc("{{.*}}print-value-users.mlir":173:8) // user: %19
// LOC-NEXT:     return %18 : i32 loc("{{.*}}print-value-users.mlir":180:3) // id: %19
// LOC-NEXT:   } loc("{{.*}}print-value-users.mlir":157:1)
// LOC-NEXT:   func.func @fwd(%arg0: i32 loc("{{.*}}print-value-users.mlir":182:16)) -> i32 {
// LOC-NEXT:     // %arg0 is used by %7
// LOC-NEXT:     cf.br ^bb2 loc("{{.*}}print-value-users.mlir":183:3)
// LOC-NEXT:   ^bb1:  // pred: ^bb2
// LOC-NEXT:     %4 = arith.addi %7, %7 : i32 loc("{{.*}}print-value-users.mlir":185:8) // user: %6
// LOC-NEXT:     "test.sink"(%7) : (i32) -> () loc("{{.*}}print-value-users.mlir":186:3) // id: %5
// LOC-NEXT:     return %4 : i32 loc("{{.*}}print-value-users.mlir":187:3) // id: %6
// LOC-NEXT:   ^bb2:  // pred: ^bb0
// LOC-NEXT:     %7 = arith.addi %arg0, %arg0 : i32 loc("{{.*}}print-value-users.mlir":189:8) // users: %8, %4, %5
// LOC-NEXT:     "test.sink2"(%7) : (i32) -> () loc("{{.*}}print-value-users.mlir":190:3) // id: %8
// LOC-NEXT:     cf.br ^bb1 loc("{{.*}}print-value-users.mlir":191:3)
// LOC-NEXT:   } loc("{{.*}}print-value-users.mlir":182:1)
// LOC-NEXT:   func.func private @decl(i32) -> i32 loc("{{.*}}print-value-users.mlir":193:1)
// LOC-NEXT: } loc("{{.*}}print-value-users.mlir":0:0)

func.func @f(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.addi %0, %0 : i32
  %2 = arith.muli %1, %a : i32
  "test.foo"(%2) : (i32) -> ()
  "test.bar"(%2, %2) : (i32, i32) -> ()
  %3:2 = "test.two"(%2) : (i32) -> (i32, i32)
  %4 = arith.addi %3#1, %3#0 : i32
  %5:3 = "test.three"(%4) : (i32) -> (i32, i32, i32)
  "test.sink"(%5#2) : (i32) -> ()
  %6 = "test.one"(%5#0) : (i32) -> i32
  %7:2 = "test.pair"(%6) : (i32) -> (i32, i32)
  "test.nothing"() : () -> ()
  cf.br ^bb1(%4, %7#0 : i32, i32)
^bb1(%x: i32, %unused: i32):
  %r = "test.region"(%x) ({
  ^bb0(%inner: i32):
    %s = arith.addi %inner, %x : i32
    "test.yield"(%s) : (i32) -> ()
  ^bb1(%dead: i32):
    "test.yield"(%x) : (i32) -> ()
  }) : (i32) -> i32
  return %r : i32
}
func.func @fwd(%a: i32) -> i32 {
  cf.br ^bb2
^bb1:
  %y = arith.addi %x, %x : i32
  "test.sink"(%x) : (i32) -> ()
  return %y : i32
^bb2:
  %x = arith.addi %a, %a : i32
  "test.sink2"(%x) : (i32) -> ()
  cf.br ^bb1
}
func.func private @decl(i32) -> i32
