// RUN: fuser-opt --allow-unregistered-dialect --mlir-elide-resource-strings-if-larger=0 %s | FileCheck %s --check-prefix=ALL
// RUN: fuser-opt --allow-unregistered-dialect --mlir-elide-resource-strings-if-larger=4 %s | FileCheck %s --check-prefix=FOUR
// RUN: fuser-opt --allow-unregistered-dialect --mlir-elide-resource-strings-if-larger=27 %s | FileCheck %s --check-prefix=LIMIT27
// RUN: fuser-opt --allow-unregistered-dialect --mlir-elide-resource-strings-if-larger=28 %s | FileCheck %s --check-prefix=LIMIT28
// RUN: fuser-opt --allow-unregistered-dialect --mlir-elide-resource-strings-if-larger=0x30 %s | FileCheck %s --check-prefix=HEX48
// RUN: fuser-opt --allow-unregistered-dialect %s | FileCheck %s --check-prefix=NONE

// --mlir-elide-resource-strings-if-larger=N leaves out each entry of the {-# ... #-} section
// whose value prints longer than N characters (a blob's hex string with its quotes: 28 and 48
// here; `true` is 4, `false` 5); a group or section left empty goes too, and when nothing is
// left the brackets still print around an empty line. The references (dense_resource<...>)
// are printed as they are. The value is an LLVM `uint` (0x.. hex, 0.. octal). Every CHECK
// line is mlir-opt-19's output.

// ALL: module {
// ALL-NEXT:   "test.a"() {r = dense_resource<blob1> : tensor<2xi32>} : () -> ()
// ALL-NEXT:   "test.b"() {r = dense_resource<big> : tensor<4xf32>} : () -> ()
// ALL-NEXT: }
// ALL-EMPTY:
// ALL-NEXT: {-#
// ALL-EMPTY:
// ALL-NEXT: #-}

// FOUR: module {
// FOUR-NEXT:   "test.a"() {r = dense_resource<blob1> : tensor<2xi32>} : () -> ()
// FOUR-NEXT:   "test.b"() {r = dense_resource<big> : tensor<4xf32>} : () -> ()
// FOUR-NEXT: }
// FOUR-EMPTY:
// FOUR-NEXT: {-#
// FOUR-NEXT:   external_resources: {
// FOUR-NEXT:     mlir_reproducer: {
// FOUR-NEXT:       disable_threading: true
// FOUR-NEXT:     }
// FOUR-NEXT:   }
// FOUR-NEXT: #-}

// LIMIT27: module {
// LIMIT27-NEXT:   "test.a"() {r = dense_resource<blob1> : tensor<2xi32>} : () -> ()
// LIMIT27-NEXT:   "test.b"() {r = dense_resource<big> : tensor<4xf32>} : () -> ()
// LIMIT27-NEXT: }
// LIMIT27-EMPTY:
// LIMIT27-NEXT: {-#
// LIMIT27-NEXT:   external_resources: {
// LIMIT27-NEXT:     mlir_reproducer: {
// LIMIT27-NEXT:       pipeline: "builtin.module(cse)",
// LIMIT27-NEXT:       disable_threading: true,
// LIMIT27-NEXT:       verify_each: false
// LIMIT27-NEXT:     }
// LIMIT27-NEXT:   }
// LIMIT27-NEXT: #-}

// LIMIT28: module {
// LIMIT28-NEXT:   "test.a"() {r = dense_resource<blob1> : tensor<2xi32>} : () -> ()
// LIMIT28-NEXT:   "test.b"() {r = dense_resource<big> : tensor<4xf32>} : () -> ()
// LIMIT28-NEXT: }
// LIMIT28-EMPTY:
// LIMIT28-NEXT: {-#
// LIMIT28-NEXT:   dialect_resources: {
// LIMIT28-NEXT:     builtin: {
// LIMIT28-NEXT:       blob1: "0x040000000100000002000000"
// LIMIT28-NEXT:     }
// LIMIT28-NEXT:   },
// LIMIT28-NEXT:   external_resources: {
// LIMIT28-NEXT:     mlir_reproducer: {
// LIMIT28-NEXT:       pipeline: "builtin.module(cse)",
// LIMIT28-NEXT:       disable_threading: true,
// LIMIT28-NEXT:       verify_each: false
// LIMIT28-NEXT:     }
// LIMIT28-NEXT:   }
// LIMIT28-NEXT: #-}

// HEX48: module {
// HEX48-NEXT:   "test.a"() {r = dense_resource<blob1> : tensor<2xi32>} : () -> ()
// HEX48-NEXT:   "test.b"() {r = dense_resource<big> : tensor<4xf32>} : () -> ()
// HEX48-NEXT: }
// HEX48-EMPTY:
// HEX48-NEXT: {-#
// HEX48-NEXT:   dialect_resources: {
// HEX48-NEXT:     builtin: {
// HEX48-NEXT:       blob1: "0x040000000100000002000000",
// HEX48-NEXT:       big: "0x040000000000803F0000004000004040000080400000"
// HEX48-NEXT:     }
// HEX48-NEXT:   },
// HEX48-NEXT:   external_resources: {
// HEX48-NEXT:     mlir_reproducer: {
// HEX48-NEXT:       pipeline: "builtin.module(cse)",
// HEX48-NEXT:       disable_threading: true,
// HEX48-NEXT:       verify_each: false
// HEX48-NEXT:     },
// HEX48-NEXT:     other: {
// HEX48-NEXT:       s: "a very long string value here ok"
// HEX48-NEXT:     }
// HEX48-NEXT:   }
// HEX48-NEXT: #-}

// NONE: module {
// NONE-NEXT:   "test.a"() {r = dense_resource<blob1> : tensor<2xi32>} : () -> ()
// NONE-NEXT:   "test.b"() {r = dense_resource<big> : tensor<4xf32>} : () -> ()
// NONE-NEXT: }
// NONE-EMPTY:
// NONE-NEXT: {-#
// NONE-NEXT:   dialect_resources: {
// NONE-NEXT:     builtin: {
// NONE-NEXT:       blob1: "0x040000000100000002000000",
// NONE-NEXT:       big: "0x040000000000803F0000004000004040000080400000"
// NONE-NEXT:     }
// NONE-NEXT:   },
// NONE-NEXT:   external_resources: {
// NONE-NEXT:     mlir_reproducer: {
// NONE-NEXT:       pipeline: "builtin.module(cse)",
// NONE-NEXT:       disable_threading: true,
// NONE-NEXT:       verify_each: false
// NONE-NEXT:     },
// NONE-NEXT:     other: {
// NONE-NEXT:       s: "a very long string value here ok"
// NONE-NEXT:     }
// NONE-NEXT:   }
// NONE-NEXT: #-}

module {
  "test.a"() {r = dense_resource<blob1> : tensor<2xi32>} : () -> ()
  "test.b"() {r = dense_resource<big> : tensor<4xf32>} : () -> ()
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000",
      big: "0x040000000000803F0000004000004040000080400000"
    }
  },
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(cse)",
      disable_threading: true,
      verify_each: false
    },
    other: {
      s: "a very long string value here ok"
    }
  }
#-}
