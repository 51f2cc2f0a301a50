// func.func with arg/result attributes and function attributes.
func.func @arg_attrs(%a: i32 {fz.noalias}, %b: f32 {fz.align = 16 : i64, fz.name = "b"}, %c: index) {
  return
}
func.func @res_attrs() -> (i32 {fz.ret = 0 : i64}, f32) {
  %0 = "fz.a"() : () -> i32
  %1 = "fz.b"() : () -> f32
  return %0, %1 : i32, f32
}
func.func @single_res_attr() -> (i32 {fz.only}) {
  %0 = "fz.a"() : () -> i32
  return %0 : i32
}
func.func @fn_attrs() attributes {fz.inline, fz.cost = 3 : i32, llvm.emit_c_interface} {
  return
}
func.func private @decl_attrs(i32 {fz.in}, f32) -> (i64 {fz.out}) attributes {fz.ext = "c"}
func.func @all(%x: tensor<?xf32> {fz.shard = #fz.shard<[0]>}) -> (tensor<?xf32> {fz.shard = #fz.shard<[1]>}) attributes {fz.kernel} {
  return %x : tensor<?xf32>
}
func.func @empty_dicts(%a: i32 {}) -> (i32 {}) {
  return %a : i32
}
"func.func"() <{function_type = (i8) -> (), sym_name = "generic_in", sym_visibility = "private"}> ({
}) : () -> ()
"func.func"() <{function_type = (i8) -> i8, sym_name = "generic_def", arg_attrs = [{fz.a}], res_attrs = [{fz.r}]}> ({
^bb0(%arg0: i8):
  "func.return"(%arg0) : (i8) -> ()
}) {fz.extra = 1 : i32} : () -> ()
