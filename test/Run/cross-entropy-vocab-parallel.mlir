// REQUIRES: fuser-run
// RUN: sed 's/DEVICES/0/' %s | fuser-run - --ranks 1 --check --input-values 1=3,0,15,-100,7,16,1,9 --input-values 3=15,14,13,12,0,1,2,3 | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --input-values 1=3,0,15,-100,7,16,1,9 --input-values 3=15,14,13,12,0,1,2,3 | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --input-values 1=3,0,15,-100,7,16,1,9 --input-values 3=15,14,13,12,0,1,2,3 | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --seed 3 --input-values 1=15,14,13,12,0,1,2,3 --input-values 3=0,-100,8,9 | FileCheck %s
// Vocab-parallel cross-entropy (Megatron): the logits are split over the vocabulary and never
// gathered. The lowering computes the row maxima (a partial max, allreduced), the parts (per
// rank the sum of exp(x - max) over its columns and the label's logit when its columns hold
// it, from its global column origin; allreduced) and the loss. Labels: one ignored row (-100)
// and one out of range (16 of 16, a NaN loss everywhere).
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST
// CHECK: check: PASS
// HOST-LABEL: func.func @loss
// HOST-NOT: comm.allgather
// HOST: host.reduce max %arg0 into %{{.*}} dims = [1] : !host.buf<8x8xf32>, !host.buf<8xf32>
// HOST: comm.allreduce max
// HOST: host.kernel "cross_entropy_parts" (%arg0, %arg1, %{{.*}}) into (%{{.*}}) origin(%{{.*}}, %{{.*}}) params {global_shape = array<i64: 8, 16>} : (!host.buf<8x8xf32>, !host.buf<8xi64>, !host.buf<8xf32>) into (!host.buf<8x2xf32>)
// HOST: comm.allreduce sum
// HOST: host.kernel "cross_entropy_finish" (%{{.*}}, %arg1, %{{.*}}) into (%{{.*}}) params {ignore_index = -100 : i64, vocab = 16 : i64}
// HOST-NOT: comm.allgather %arg2

fusion.mesh @tp = [DEVICES]

// The second loss: bf16 logits and an f32 loss, labels split over the rows (gathered to the
// rows' layout first), the loss split over the rows (sliced after the finish), ignore_index = 0.
func.func @loss(%logits: tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %labels: tensor<8xi64, #fusion.shard<@tp, [[]]>>,
                %logits2: tensor<8x32xbf16, #fusion.shard<@tp, [[], [DIDx]]>>, %labels2: tensor<8xi64, #fusion.shard<@tp, [[DIDx]]>>)
    -> (tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>) {
  %l = fusion.cross_entropy %logits, %labels : (tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8xi64, #fusion.shard<@tp, [[]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[]]>>
  %m = fusion.cross_entropy %logits2, %labels2 {ignore_index = 0 : i64} : (tensor<8x32xbf16, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8xi64, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>
  return %l, %m : tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>
}
