// Self-test of the lit harness: horizontal whitespace is canonicalised like LLVM
// FileCheck does (runs of spaces and tabs match one space), except with
// --strict-whitespace.
// RUN: cat %s | FileCheck %s
// RUN: cat %s | not FileCheck %s --strict-whitespace --check-prefix=STRICT
// RUN: cat %s | FileCheck %s --strict-whitespace --check-prefix=EXACT

// data:	%0 = "fz.add"(%a,     %b)	:	(f32)
// data: x   =     1

// CHECK: {{^}}// data: %0 = "fz.add"(%a, %b) : (f32)
// CHECK-NEXT: // data:  x  =  1
// STRICT: {{^}}// data: x = 1
// EXACT: {{^}}// data: x   =     1
