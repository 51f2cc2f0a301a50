// RUN: fuser-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: fuser-opt %s --allow-unregistered-dialect | fuser-opt --allow-unregistered-dialect | FileCheck %s

// dense_resource<name> with the file's resource section printed back as mlir-opt-19 does:
// only the builtin blobs that printed attributes reference, in first-print order, hex in upper
// case; external resources verbatim, in file order.

// CHECK: "foo.op"() {a = dense_resource<blob1> : tensor<2xi32>, b = dense_resource<blob2> : tensor<1xi8>, c = dense_resource<zz> : tensor<1xi8>} : () -> ()
// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob1: "0x0400000001000000FFFFFFFF",
// CHECK-NEXT:       blob2: "0x01000000AB"
// CHECK-NEXT:     }
// CHECK-NEXT:   },
// CHECK-NEXT:   external_resources: {
// CHECK-NEXT:     foo: {
// CHECK-NEXT:       x: true
// CHECK-NEXT:     },
// CHECK-NEXT:     bar: {
// CHECK-NEXT:       y: "s"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
"foo.op"() {a = dense_resource<blob1> : tensor<2xi32>, b = dense_resource<blob2> : tensor<1xi8>, c = dense_resource<zz> : tensor<1xi8>} : () -> ()
{-#
  dialect_resources: {
    builtin: {
      blob2: "0x01000000ab",
      blob1: "0x0400000001000000ffffffff",
      unused: "0x0100000002"
    }
  },
  external_resources: {
    foo: { x: true },
    bar: { y: "s" }
  }
#-}
