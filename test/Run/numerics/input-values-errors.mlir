// REQUIRES: fuser-run
// RUN: not fuser-run %s --input-values 0=2.5 2>&1 | FileCheck %s --check-prefix=NOT-INT
// NOT-INT: fuser-run: error: --input-values: 2.5 is not a value of input #0's type i8
// RUN: not fuser-run %s --input-values 0=128 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: fuser-run: error: --input-values: 128 is not a value of input #0's type i8
// RUN: not fuser-run %s --input-values 1=1 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: fuser-run: error: --input-values names input #1, the function takes 1 inputs
// RUN: not fuser-run %s --input-values 0=1,x 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: fuser-run: error: invalid value '0=1,x' for --input-values (expected INDEX=V,V,..., e.g. 0=2.5,-2.5,inf)
// RUN: fuser-run %s --input-values 0=-128,127 --print-outputs | FileCheck %s
// CHECK: output #0 (i8 [4]): -128 127 -128 127
//
// Given input values must be values of the input's type (integers: exact and in range) and
// name an existing input; they repeat to fill the tensor.
func.func @id(%x: tensor<4xi8>) -> tensor<4xi8> {
  %y = fusion.set %x : (tensor<4xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}
