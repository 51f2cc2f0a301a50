// REQUIRES: fuser-run
// fusion.embedding, vocab-parallel: the table is split over DIDx on its vocabulary axis, each
// rank gathers the rows it holds and writes zeros for the other ids (a partial sum), and the
// allreduce completes the rows. The random ids are in [-8, 8): the negative ones are out of
// range and give rows of zeros; --input-values adds ids past the vocabulary.
// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: fuser-run %s --ranks 4 --check --seed 5 | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: fuser-run %s --ranks 4 --check --input-values 1=0,7,8,9,-1,3,100,-100 --print-outputs | FileCheck %s --check-prefix=OOR
// RUN: sed 's/xi64>/xi32>/g' %s | fuser-run - --ranks 4 --check --seed 2 | FileCheck %s
// RUN: sed 's/x16xf32/x16xbf16/g' %s | fuser-run - --ranks 4 --check --seed 3 | FileCheck %s
// RUN: sed 's/x16xf32/x16xi32/g' %s | fuser-run - --ranks 4 --check --seed 4 | FileCheck %s
// Other shardings: ids split by rows over a replicated table (the rows are gathered), and a
// table split on its embedding axis with the result split alike (local, no communication).
// RUN: sed 's/tensor<8x16xf32, #fusion.shard<@tp, \[\[DIDx\], \[\]\]>>/tensor<8x16xf32>/g; s/tensor<4x6xi64>/tensor<4x6xi64, #fusion.shard<@tp, [[DIDx], []]>>/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/tensor<8x16xf32, #fusion.shard<@tp, \[\[DIDx\], \[\]\]>>/tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>/g; s/\[\[\], \[\], \[\]\]/[[], [], [DIDx]]/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// Stream chunks: the ids in two chunks (one kernel per chunk), the table's vocabulary in two
// (the table is read whole by each kernel).
// RUN: sed 's/tensor<4x6xi64>/tensor<4x6xi64, #fusion.shard<@tp, [[Stream(2)], []]>>/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/tensor<8x16xf32, #fusion.shard<@tp, \[\[DIDx\], \[\]\]>>/tensor<8x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// CHECK: check: PASS
// Ids 0 and 7 gather rows, 8 and 9 (past V = 8) give zeros.
// OOR: output #0 (f32 [4, 6, 16]): {{[^ ]+( [^ ]+)*}} 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ... (384 values)
// OOR: check: PASS

// The lowering: one host.kernel per rank with the table's first global row as its origin,
// then the allreduce of the partial rows.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOWER
// LOWER: %[[RANK:.*]] = host.rank
// LOWER: %[[ROW:.*]] = arith.muli %[[RANK]], %c2
// LOWER: host.kernel "embedding" (%arg0, %arg1) into (%{{.*}}) origin(%[[ROW]], %c0) params {global_shape = array<i64: 8, 16>} : (!host.buf<2x16xf32>, !host.buf<4x6xi64>) into (!host.buf<4x6x16xf32>)
// LOWER: comm.allreduce sum

// The check sees a wrong origin: every rank taking its rows for rows 0..2 fails.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/origin(%[0-9]*, %c0)/origin(%c0, %c0)/' | not fuser-run - --ranks 4 --check --reference %s | FileCheck %s --check-prefix=WRONG
// WRONG: check: FAIL

fusion.mesh @tp = [0, 1, 2, 3]
func.func @embed(%table: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %ids: tensor<4x6xi64>)
    -> tensor<4x6x16xf32, #fusion.shard<@tp, [[], [], []]>> {
  %e = fusion.embedding %table, %ids : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x6xi64>) -> tensor<4x6x16xf32, #fusion.shard<@tp, [[], [], []]>>
  return %e : tensor<4x6x16xf32, #fusion.shard<@tp, [[], [], []]>>
}
