// Two functions with the same symbol name.
func.func @f() {
  return
}
func.func @f() {
  return
}
