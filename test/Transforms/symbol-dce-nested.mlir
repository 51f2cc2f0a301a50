// RUN: fuser-opt --allow-unregistered-dialect %s --symbol-dce | FileCheck %s
// RUN: fuser-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(builtin.module(symbol-dce))' | FileCheck %s --check-prefix=NESTED

// Unused `nested` symbols are discardable (MLIR's canDiscardOnUseEmpty: any symbol that is not
// public) when their table is hidden: the top-level module, any table inside a hidden one, a
// private module. A public module that is itself the pass root is not hidden. Checked against
// mlir-opt-19.

// CHECK-LABEL: module {
// CHECK-NEXT:    func.func nested @live()
// CHECK-NEXT:    func.func @pub() attributes {uses = [@live]} {
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    module @public_mod {
// CHECK-NEXT:    }
// CHECK-NEXT:    module @private_mod attributes {sym_visibility = "private"} {
// CHECK-NEXT:    }
// CHECK-NEXT:    "u.user"() {uses = [@private_mod]} : () -> ()
// CHECK-NEXT:  }

// NESTED-LABEL: module {
// NESTED-NEXT:    func.func nested @dead()
// NESTED-NEXT:    func.func nested @live()
// NESTED:         module @public_mod {
// NESTED-NEXT:      func.func nested @in_public()
// NESTED-NEXT:    }
// NESTED-NEXT:    module @private_mod attributes {sym_visibility = "private"} {
// NESTED-NEXT:    }
module {
  func.func nested @dead()
  func.func nested @live()
  func.func @pub() attributes {uses = [@live]} {
    return
  }
  module @public_mod {
    func.func nested @in_public()
  }
  module @private_mod attributes {sym_visibility = "private"} {
    func.func nested @in_private()
  }
  "u.user"() {uses = [@private_mod]} : () -> ()
}
