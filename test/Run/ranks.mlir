// Without --ranks, fuser-run runs one rank per device of the input's meshes (all meshes
// together); an input without a mesh runs on one rank.

// REQUIRES: fuser-run
// RUN: fuser-run %S/../../examples/row_parallel_linear.mlir --check | FileCheck %s --check-prefix=ONE-MESH
// ONE-MESH: fuser-run: @row_parallel_linear on 4 rank(s)
// ONE-MESH: check: PASS

// This file declares @tp = [0, 1] and @second = [1]: together devices 0 and 1, two ranks.
// RUN: fuser-run %s --check | FileCheck %s --check-prefix=TWO-MESHES
// TWO-MESHES: fuser-run: @negate on 2 rank(s)
// TWO-MESHES: check: PASS

// --ranks still decides when given, and the mismatch names the ranks it runs.
// RUN: not fuser-run %s --ranks 1 2>&1 | FileCheck %s --check-prefix=ONE-RANK
// ONE-RANK: fuser-run: error: mesh @tp has devices [0, 1], but --ranks 1 runs rank 0 (rank r runs device r)
// RUN: not fuser-run %s --ranks 3 2>&1 | FileCheck %s --check-prefix=THREE-RANKS
// THREE-RANKS: fuser-run: error: mesh @tp has devices [0, 1], but --ranks 3 runs ranks 0..=2 (rank r runs device r)

// Meshes whose devices are not 0..=N-1 give no default; the error is at the first mesh with a
// device outside the range.
// RUN: sed 's/@second = \[1\]/@second = [5]/' %s | not fuser-run - 2>&1 | FileCheck %s --check-prefix=GAP
// GAP: <stdin>:{{[0-9]+}}:1: error: mesh @second has devices [5]: without --ranks the 3 devices of the input's meshes need to be devices 0..=2 (rank r runs device r); pass --ranks
// GAP-NEXT: fusion.mesh @second = [5]

// RUN: not fuser-run %S/errors.mlir 2>&1 | FileCheck %s --check-prefix=NO-MESH
// NO-MESH: error: rank 0: team member 1 is outside the world of rank 0

fusion.mesh @tp = [0, 1]
fusion.mesh @second = [1]

func.func @negate(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %y = fusion.neg %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %y : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
