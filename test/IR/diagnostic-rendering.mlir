// RUN: not fuser-opt %s -allow-unregistered-dialect 2>&1 | FileCheck %s --strict-whitespace

// Several errors of one parse are all printed, each with its source line and caret; a tab in
// the source line is expanded to the next multiple of 8 columns, and the caret follows it.

// CHECK:      diagnostic-rendering.mlir:[[@LINE+3]]:9: error: use of undeclared SSA value name
// CHECK-NEXT: {{^}}        "fz.a"(%x) : (i32) -> (){{$}}
// CHECK-NEXT: {{^}}               ^{{$}}
	"fz.a"(%x) : (i32) -> ()
// CHECK-NEXT: diagnostic-rendering.mlir:[[@LINE+3]]:12: error: use of undeclared SSA value name
// CHECK-NEXT: {{^}}"fz.b"(%x,      %y) : (i32, i32) -> (){{$}}
// CHECK-NEXT: {{^}}                ^{{$}}
"fz.b"(%x,	%y) : (i32, i32) -> ()
