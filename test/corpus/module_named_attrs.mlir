// Named module with attributes.
module @my_mod attributes {fz.target = "cpu", fz.ranks = 4 : i32, fz.flag} {
  func.func @f() {
    return
  }
}
