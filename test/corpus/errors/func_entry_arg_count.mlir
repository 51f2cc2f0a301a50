// Entry block argument count must match the function signature (generic form).
"func.func"() <{function_type = (i32, i32) -> (), sym_name = "f"}> ({
^bb0(%a: i32):
  "func.return"() : () -> ()
}) : () -> ()
