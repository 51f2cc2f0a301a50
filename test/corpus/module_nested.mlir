// Nested modules, named and unnamed, and a module next to other ops.
module @outer {
  module @inner attributes {fz.level = 1 : i32} {
    func.func private @deep()
  }
  module {
    "fz.anon"() : () -> ()
  }
  func.func @top() {
    return
  }
}
