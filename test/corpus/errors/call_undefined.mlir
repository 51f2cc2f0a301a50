// func.call to a symbol that does not exist.
func.func @f() {
  call @nowhere() : () -> ()
  return
}
