// A func.func body block that is empty.
func.func @f() {
^bb0:
}
