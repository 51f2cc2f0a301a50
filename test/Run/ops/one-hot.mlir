// REQUIRES: fuser-run
// fusion.one_hot with its class axis split over DIDx (the layout of vocab-parallel logits):
// each rank writes its columns, knowing their global index (the kernel's origin), no
// communication. The random labels are in [-8, 8): the negative ones give rows of zeros;
// --input-values adds labels past the classes.
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// RUN: fuser-run %s --ranks 2 --check --seed 5 | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: fuser-run %s --ranks 2 --check --input-values 0=0,7,8,-1,3,100 --print-outputs | FileCheck %s --check-prefix=OOR
// RUN: sed 's/xi64>/xi32>/g' %s | fuser-run - --ranks 2 --check --seed 2 | FileCheck %s
// RUN: sed 's/x8xf32/x8xbf16/g' %s | fuser-run - --ranks 2 --check --seed 3 | FileCheck %s
// Other shardings: the labels' rows split over DIDx (the result's rows alike), replicated.
// RUN: sed 's/tensor<2x3xi64>/tensor<2x3xi64, #fusion.shard<@tp, [[DIDx], []]>>/g; s/\[\[\], \[\], \[DIDx\]\]/[[DIDx], [], []]/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/\[\[\], \[\], \[DIDx\]\]/[[], [], []]/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// Stream chunks of the class axis inside the device split (one kernel per chunk, its origin the
// chunk's first class).
// RUN: sed 's/\[\[\], \[\], \[DIDx\]\]/[[], [], [DIDx, Stream(2)]]/g' %s | fuser-run - --ranks 2 --check | FileCheck %s
// CHECK: check: PASS
// Labels 0, 7, 3 give a 1 in their column; 8, 100 (past 8 classes) and -1 rows of zeros.
// OOR: output #0 (f32 [2, 3, 8]): 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0
// OOR: check: PASS

// The lowering: one host.kernel per rank with its first global class as the origin.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOWER
// LOWER: %[[RANK:.*]] = host.rank
// LOWER: %[[COL:.*]] = arith.muli %[[RANK]], %c4
// LOWER: host.kernel "one_hot" (%arg0) into (%{{.*}}) origin(%c0, %c0, %[[COL]]) params {global_shape = array<i64: 2, 3, 8>, num_classes = 8 : i64} : (!host.buf<2x3xi64>) into (!host.buf<2x3x4xf32>)
// LOWER-NOT: comm.

// The check sees a wrong origin: every rank writing classes 0..4 fails.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/origin(%c0, %c0, %[0-9]*)/origin(%c0, %c0, %c0)/' | not fuser-run - --ranks 2 --check --reference %s | FileCheck %s --check-prefix=WRONG
// WRONG: check: FAIL

fusion.mesh @tp = [0, 1]
func.func @one_hot(%labels: tensor<2x3xi64>) -> tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], [DIDx]]>> {
  %o = fusion.one_hot %labels num_classes = 8 : (tensor<2x3xi64>) -> tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], [DIDx]]>>
  return %o : tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], [DIDx]]>>
}
