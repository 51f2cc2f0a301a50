// RUN: not fuser-opt --split-input-file %s 2>&1 | FileCheck %s

// Where mlir-opt-19's affine parser reports errors: a non-affine `a op b` at the operator that
// follows `b` (if any), a failed negation operand with an extra error, a short ellipsis after
// its first dot. Chunk 1 errors at 8:54: the `*` of `j*5`, not `ceildiv`.

// CHECK: offset :8:54: error: non-affine expression: right operand of ceildiv has to be either a constant or symbolic
#m0 = affine_map<(i, j) [s0, s1] -> (i, i*2 ceildiv j*5)>

// -----

// CHECK: offset :4:34: error: non-affine expression: right operand of mod has to be either a constant or symbolic
#m1 = affine_map<(i, j) -> (i, i mod j)>

// -----

// CHECK: offset :5:40: error: no expression inside parentheses
// CHECK: offset :5:40: error: missing operand of negation
#m2 = affine_map<(i, j) [s0, s1] -> (-(), j)>

// -----

// CHECK: offset :4:36: error: expected three consecutive dots for an ellipsis
func.func @malformed_ellipsis_one(.)
