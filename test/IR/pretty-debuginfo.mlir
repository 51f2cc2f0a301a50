// RUN: fuser-opt --allow-unregistered-dialect %s --mlir-print-debuginfo --mlir-pretty-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: fuser-opt --allow-unregistered-dialect %s --mlir-print-debuginfo --mlir-pretty-debuginfo | FileCheck %s --check-prefix=ALIAS

// --mlir-pretty-debuginfo prints locations in MLIR's pretty form: no loc(...), file names
// unquoted, [unknown], fused without its keyword, `callee at caller` on one line only for a
// name called from a file position (else a newline before each ` at `). Top-level locations
// never use an alias; nested ones and the alias definitions do. Checked against mlir-opt-19.

// CHECK-LABEL: func.func @inline_notation(%arg0: i32 "argloc") -> i32 {
// CHECK-NEXT:    %0 = "foo"() : () -> i32 "foo"
// CHECK-NEXT:    %c4 = arith.constant 4 : index "foo" at mysource.cc:10:8
// CHECK-NEXT:    %c4_0 = arith.constant 4 : index "foo"
// CHECK-NEXT: {{^}} at mysource1.cc:10:8
// CHECK-NEXT: {{^}} at mysource2.cc:13:8
// CHECK-NEXT: {{^}} at mysource3.cc:100:10
// CHECK-NEXT:    "t.for"() ({
// CHECK-NEXT:      "t.yield"() : () -> () {{.*}}pretty-debuginfo.mlir:43:5
// CHECK-NEXT:    }) : () -> () ["foo", mysource.cc:10:8]
// CHECK:         }) {condition = affine_set<(d0) : (1 == 0)>, where = attr.cc:1:2} : (index) -> () <"myPass">["foo", "foo2"]
// CHECK-NEXT:    return %0 : i32 [unknown]
// CHECK-NEXT:  } {{.*}}pretty-debuginfo.mlir:38:1
// CHECK-NEXT: } {{.*}}pretty-debuginfo.mlir:0:0

// ALIAS:      #loc2 = "argloc"
// ALIAS-NEXT: #loc11 = attr.cc:1:2
// ALIAS:        %c4 = arith.constant 4 : index #loc3 at #loc4
// ALIAS-NEXT:   %c4_0 = arith.constant 4 : index #loc3
// ALIAS-NEXT: {{^}} at #loc17
// ALIAS:        }) {condition = #set, where = #loc11} : (index) -> () <"myPass">[#loc3, #loc9]
// ALIAS:      #loc12 = [unknown]
// ALIAS-NEXT: #loc13 = #loc3 at #loc4
// ALIAS-NEXT: #loc14 = #loc6
// ALIAS-NEXT: {{^}} at #loc7
// ALIAS-NEXT: #loc15 = [#loc3, #loc4]
// ALIAS-NEXT: #loc16 = <"myPass">[#loc3, #loc9]
#set0 = affine_set<(d0) : (1 == 0)>

func.func @inline_notation(%arg: i32 loc("argloc")) -> i32 {
  %1 = "foo"() : () -> i32 loc("foo")
  %2 = arith.constant 4 : index loc(callsite("foo" at "mysource.cc":10:8))
  %3 = arith.constant 4 : index loc(callsite("foo" at callsite("mysource1.cc":10:8 at callsite("mysource2.cc":13:8 at "mysource3.cc":100:10))))
  "t.for"() ({
    "t.yield"() : () -> ()
  }) : () -> () loc(fused["foo", "mysource.cc":10:8])
  "t.if"(%2) ({
    "t.yield"() : () -> ()
  }) {condition = #set0, where = loc("attr.cc":1:2)} : (index) -> () loc(fused<"myPass">["foo", "foo2"])
  return %1 : i32 loc(unknown)
}
