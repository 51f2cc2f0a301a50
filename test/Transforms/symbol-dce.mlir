// RUN: fuser-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(symbol-dce)' --split-input-file | FileCheck %s

// Private symbols nothing live refers to are erased; public ones always stay; references
// through other private symbols, arrays, dictionaries and nested references count.
// CHECK-LABEL: module {
// CHECK-NEXT:    func.func @pub()
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func private @used()
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func private @user()
// CHECK-NEXT:      call @used() : () -> ()
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @entry()
// CHECK-NEXT:      call @user() : () -> ()
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    "fz.x"() {refs = [@in_array, {k = @in_dict}]} : () -> ()
// CHECK-NEXT:    func.func private @in_array()
// CHECK-NEXT:    func.func private @in_dict()
// CHECK-NEXT:    module @n {
// CHECK-NEXT:      func.func @inner_pub()
// CHECK:           func.func private @inner_used()
// CHECK-NEXT:    }
// CHECK-NEXT:    "fz.y"() {ref = @n::@inner_used} : () -> ()
// CHECK-NEXT:  }
func.func @pub() {
  return
}
func.func private @dead() {
  return
}
func.func private @used() {
  return
}
func.func private @user() {
  func.call @used() : () -> ()
  return
}
func.func @entry() {
  func.call @user() : () -> ()
  return
}
func.func private @dead_caller() {
  func.call @used() : () -> ()
  return
}
"fz.x"() {refs = [@in_array, {k = @in_dict}]} : () -> ()
func.func private @in_array()
func.func private @in_dict()
module @n {
  func.func @inner_pub() {
    return
  }
  func.func private @inner_dead()
  func.func private @inner_used()
}
module @q attributes {sym_visibility = "private"} {
  func.func @c() {
    return
  }
}
"fz.y"() {ref = @n::@inner_used} : () -> ()

