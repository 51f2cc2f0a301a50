// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --ranks 1 --check --seed 2 | FileCheck %s
// RUN: sed 's/ causal//g' %s | fuser-run - --ranks 2 --check --seed 3 | FileCheck %s
// RUN: sed 's/causal/causal scale = 0.3/g' %s | fuser-run - --ranks 2 --check --seed 4 | FileCheck %s
// RUN: sed 's/x16xf32/x16xbf16/g' %s | fuser-run - --ranks 2 --check --seed 5 | FileCheck %s
// The query sequence split over DIDx (q, dout and dq; k and v stay split on heads, so they are
// gathered): each rank computes dq of its query rows (the causal mask at their global indices)
// and partial sums of dk and dv, which a reduce-scatter puts onto their head split.
// RUN: sed 's/1x4x8x16xf32, #fusion.shard<@tp, \[\[\], \[DIDx\], \[\], \[\]\]>/1x4x8x16xf32, #fusion.shard<@tp, [[], [], [DIDx], []]>/g' %s | fuser-run - --ranks 2 --check --seed 6 | FileCheck %s
// RUN: sed 's/1x4x8x16xf32, #fusion.shard<@tp, \[\[\], \[DIDx\], \[\], \[\]\]>/1x4x8x16xf32, #fusion.shard<@tp, [[], [], [DIDx], []]>/g' %s | fuser-opt - --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=SEQ
// SEQ: host.kernel "sdpa_grad"
// SEQ-SAME: origin(%c0, %c0, %{{.*}}, %c0)
// SEQ: comm.reduce_scatter sum
// SEQ: comm.reduce_scatter sum
// Context parallel: the query sequence split, k and v replicated: local attention and its
// gradient, then the allreduce of the partial dk and dv.
// RUN: sed 's/1x4x8x16xf32, #fusion.shard<@tp, \[\[\], \[DIDx\], \[\], \[\]\]>/1x4x8x16xf32, #fusion.shard<@tp, [[], [], [DIDx], []]>/g; s/1x2x12x16xf32, #fusion.shard<@tp, \[\[\], \[DIDx\], \[\], \[\]\]>/1x2x12x16xf32/g' %s | fuser-run - --ranks 2 --check --seed 8 | FileCheck %s
// RUN: sed 's/1x4x8x16xf32, #fusion.shard<@tp, \[\[\], \[DIDx\], \[\], \[\]\]>/1x4x8x16xf32, #fusion.shard<@tp, [[], [], [DIDx], []]>/g; s/1x2x12x16xf32, #fusion.shard<@tp, \[\[\], \[DIDx\], \[\], \[\]\]>/1x2x12x16xf32/g' %s | fuser-opt - --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=CP
// CP-NOT: comm.
// CP: host.kernel "sdpa_grad"
// CP: comm.allreduce sum
// CP: comm.allreduce sum
// Heads in stream chunks (one rank): the kernel runs per chunk of query heads with their kv
// heads (dk, dv are written in dq's chunks).
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/; s/\[\[\], \[DIDx\], \[\], \[\]\]/[[], [Stream(2)], [], []]/g' %s | fuser-run - --ranks 1 --check --seed 7 | FileCheck %s
// A stream split of the query sequence cannot be honoured (each chunk would overwrite dk and dv,
// which sum over it): a diagnostic.
// RUN: sed 's/1x4x8x16xf32, #fusion.shard<@tp, \[\[\], \[DIDx\], \[\], \[\]\]>/1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>/g' %s | not fuser-run - --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=STREAM
// STREAM: error: 'fusion.sdpa_grad': result #0 is streamed along axis 2, which result #1 sums over
// CHECK: check: PASS
//
// The gradient of grouped-query attention (4 query heads over 2 key/value heads, more keys
// than queries, causal), heads split over DIDx (one kv head and its 2 query heads per rank at
// d = 2): the forward's out and lse feed fusion.sdpa_grad; dk and dv of a kv head sum over its
// query heads.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOWER
// LOWER: host.kernel "sdpa"
// LOWER: host.kernel "sdpa_grad" (%{{.*}}) into (%{{.*}}, %{{.*}}, %{{.*}}) origin(%c0, %{{.*}}, %c0, %c0) params {causal, global_shape = array<i64: 1, 4, 8, 16>} : (!host.buf<1x2x8x16xf32>, !host.buf<1x1x12x16xf32>, !host.buf<1x1x12x16xf32>, !host.buf<1x2x8x16xf32>, !host.buf<1x2x8xf32>, !host.buf<1x2x8x16xf32>) into (!host.buf<1x2x8x16xf32>, !host.buf<1x1x12x16xf32>, !host.buf<1x1x12x16xf32>)
fusion.mesh @tp = [0, 1]
func.func @attention_grad(%q: tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, %k: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, %v: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, %do: tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) -> (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) {
  %o, %l = fusion.sdpa %q, %k, %v causal
      : (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8xf32>)
  %dq, %dk, %dv = fusion.sdpa_grad %q, %k, %v, %o, %l, %do causal
      : (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) -> (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>)
  return %dq, %dk, %dv : tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
}
