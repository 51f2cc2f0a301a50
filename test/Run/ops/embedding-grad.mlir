// REQUIRES: fuser-run
// fusion.embedding_grad, vocab-parallel: the table gradient is split over DIDx on its rows;
// each rank adds the rows of g whose ids it holds (the kernel gets the global row of its first
// row), no communication. The random ids are in [-8, 8): the negative ones add nothing;
// --input-values adds ids past the vocabulary and repeated ids (their rows add up).
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// RUN: fuser-run %s --ranks 2 --check --seed 5 | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: fuser-run %s --ranks 2 --check --input-values 0=0,7,8,9,-1,3,100,-100,7,7,0,3 --print-outputs | FileCheck %s --check-prefix=OOR
// RUN: sed 's/xi64>/xi32>/g' %s | fuser-run - --ranks 2 --check --seed 2 | FileCheck %s
// RUN: sed 's/x16xf32/x16xbf16/g' %s | fuser-run - --ranks 2 --check --seed 3 | FileCheck %s
// Other shardings: a replicated table gradient; the tokens split over DIDx (ids and g alike:
// each rank's sum is partial, allreduced onto the replicated result, or reduce-scattered onto
// the row-split one); the embedding axis split (local).
// RUN: sed 's/tensor<8x16xf32, #fusion.shard<@tp, \[\[DIDx\], \[\]\]>>/tensor<8x16xf32>/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/tensor<8x16xf32, #fusion.shard<@tp, \[\[DIDx\], \[\]\]>>/tensor<8x16xf32>/g; s/tensor<4x3xi64>/tensor<4x3xi64, #fusion.shard<@tp, [[DIDx], []]>>/g; s/tensor<4x3x16xf32>/tensor<4x3x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/tensor<4x3xi64>/tensor<4x3xi64, #fusion.shard<@tp, [[DIDx], []]>>/g; s/tensor<4x3x16xf32>/tensor<4x3x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/tensor<8x16xf32, #fusion.shard<@tp, \[\[DIDx\], \[\]\]>>/tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>/g; s/tensor<4x3x16xf32>/tensor<4x3x16xf32, #fusion.shard<@tp, [[], [], [DIDx]]>>/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// Stream chunks of the rows inside the device split (one kernel per chunk, its origin the
// chunk's first row).
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[DIDx, Stream(2)], []]/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// CHECK: check: PASS
// Ids 0, 7 (three times), 3 (twice) add rows; 8, 9, 100 (past V = 8) and the negative ones
// add nothing: rows 1 and 2 of the table gradient are zero (the first 48 values printed).
// OOR: output #0 (f32 [8, 16]): {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} {{[^ ]+}} ... (128 values)
// OOR: check: PASS

// The lowering: one host.kernel per rank with its first global row as the origin, no
// communication.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOWER
// LOWER: %[[RANK:.*]] = host.rank
// LOWER: %[[ROW:.*]] = arith.muli %[[RANK]], %c4
// LOWER: host.kernel "embedding_grad" (%arg0, %arg1) into (%{{.*}}) origin(%[[ROW]], %c0) params {global_shape = array<i64: 8, 16>, num_rows = 8 : i64} : (!host.buf<4x3xi64>, !host.buf<4x3x16xf32>) into (!host.buf<4x16xf32>)
// LOWER-NOT: comm.

// The check sees a wrong origin: every rank adding rows 0..4 fails.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/origin(%[0-9]*, %c0)/origin(%c0, %c0)/' | not fuser-run - --ranks 2 --check --reference %s | FileCheck %s --check-prefix=WRONG
// WRONG: check: FAIL

fusion.mesh @tp = [0, 1]
func.func @embed_grad(%ids: tensor<4x3xi64>, %g: tensor<4x3x16xf32>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %t = fusion.embedding_grad %ids, %g num_rows = 8 : (tensor<4x3xi64>, tensor<4x3x16xf32>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %t : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
