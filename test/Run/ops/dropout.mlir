// REQUIRES: fuser-run
// fusion.dropout draws its mask from Philox4x32-10 at the global index of each element, so a
// split of x over the devices and stream chunks give the unsharded program's output exactly:
// --check compares with the reference, which evaluates the dropout on the global tensor.
// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: fuser-run %s --ranks 4 --check --seed 9 | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: sed 's/xf32/xbf16/g' %s | fuser-run - --ranks 4 --check --seed 3 | FileCheck %s
// RUN: sed 's/xf32/xf16/g' %s | fuser-run - --ranks 4 --check --seed 2 | FileCheck %s
// RUN: sed 's/xf32/xf64/g' %s | fuser-run - --ranks 4 --check --seed 2 | FileCheck %s
// CHECK: check: PASS (max rel err 0.000e0)

// Rows split over DIDx, and Stream chunks inside or outside the device split, along the rows
// or the columns: each piece's (each chunk's) kernel gets the global coordinates of its first
// element, and the outputs equal the unsharded reference's bit for bit.
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[DIDx, Stream(2)], []]/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[Stream(2), DIDx], []]/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[DIDx], [Stream(3)]]/g' %s | fuser-run - --ranks 4 --check --seed 4 | FileCheck %s
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[Stream(2)], [DIDx]]/g' %s | fuser-run - --ranks 4 --check --seed 6 | FileCheck %s
// One Philox call serves the four elements of an aligned group of 4 global indices: with rows
// of 10 split into column chunks of 5, groups straddle the chunks (and the rows), and each
// chunk still picks the right words.
// RUN: sed 's/16x12/16x10/g; s/\[\[DIDx\], \[\]\]/[[DIDx], [Stream(2)]]/g' %s | fuser-run - --ranks 4 --check --seed 5 | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{fuse=false})' | FileCheck %s --check-prefix=LOWER
// LOWER:      %[[ROW:.*]] = arith.muli %rank, %c4 : index
// LOWER-NEXT: host.kernel "dropout" (%arg0, %arg1, %arg2) into (%{{.*}}) origin(%[[ROW]], %c0) params {global_shape = array<i64: 16, 12>, p = 2.500000e-01 : f64} : (!host.buf<4x12xf32>, !host.buf<i64>, !host.buf<i64>) into (!host.buf<4x12xf32>)
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[DIDx, Stream(2)], []]/g' %s | fuser-opt --pass-pipeline='builtin.module(tp-default{fuse=false})' | FileCheck %s --check-prefix=CHUNKS
// CHUNKS:      host.for %[[I:.*]] = %c0 to %c2 step %c1
// CHUNKS:      %[[R:.*]] = arith.muli %rank, %c4 : index
// CHUNKS-NEXT: %[[C:.*]] = arith.muli %[[I]], %c2 : index
// CHUNKS-NEXT: %[[O:.*]] = arith.addi %[[R]], %[[C]] : index
// CHUNKS-NEXT: host.kernel "dropout" (%{{.*}}, %arg1, %arg2) into (%{{.*}}) origin(%[[O]], %c0)

// The check sees a wrong origin: with every rank at origin 0 the masks repeat and differ from
// the reference's.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/origin(%[0-9]*, %c0)/origin(%c0, %c0)/' | not fuser-run - --ranks 4 --check --reference %s | FileCheck %s --check-prefix=WRONG
// WRONG: check: FAIL

// A fixed seed and offset: the outputs have zeros where the mask drops, and 4/3 x elsewhere.
// RUN: fuser-run %s --ranks 4 --check --input-values 0=1.5 --input-values 1=7 --input-values 2=100 --print-outputs | FileCheck %s --check-prefix=VALUES
// VALUES: output #0 (f32 [16, 12]): {{.*}}2 {{.*}}0 {{.*}}
// VALUES: check: PASS

fusion.mesh @tp = [0, 1, 2, 3]
func.func @rows(%x: tensor<16x12xf32, #fusion.shard<@tp, [[DIDx], []]>>, %seed: tensor<i64>, %off: tensor<i64>)
    -> tensor<16x12xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %y = fusion.dropout %x, %seed, %off p = 0.25 : (tensor<16x12xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<16x12xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %y : tensor<16x12xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
