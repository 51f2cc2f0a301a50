// An input or output file that cannot be opened is reported in mlir-opt-19's words: no tool
// name, no location, the system's message (without Rust's "(os error N)").

// RUN: not fuser-opt %S/no-such-file.mlir 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: {{^}}cannot open input file '{{.*}}no-such-file.mlir': No such file or directory{{$}}

// RUN: not fuser-opt %s -o %S/no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: {{^}}cannot open output file '{{.*}}no-such-dir/out.mlir': No such file or directory{{$}}

func.func @f() {
  return
}
