// REQUIRES: fuser-run
// RUN: fuser-run %s --check | FileCheck %s
// RUN: sed 's/xbf16/xf16/g' %s | fuser-run - --check --seed 2 | FileCheck %s
// RUN: sed 's/%v causal$/%v/' %s | fuser-run - --check --seed 3 | FileCheck %s
// CHECK: check: PASS
//
// bf16 attention at the head dimension of GPT-3 and Llama (D = 128), sized for the tiles of the
// cuda backend's FA2-style kernel (crates/runtime/src/cuda/ops/attention.cu): 200 queries in 2
// streamed chunks of 100 (a query offset of 100 for the causal mask of the second), each one
// block of 128 queries with idle warps; 200 keys = 3 full tiles of 64 and a partial one;
// grouped-query (4 query heads over 2 key/value heads); causal (then not), with the lse. On a
// GPU: `fuser-run test/Run/ops/sdpa-bf16-tiles.mlir --backend cuda --check` (the default kernel;
// FUSER_SDPA_KERNEL=v1 runs the first tensor-core kernel).
fusion.mesh @tp = [0]
func.func @attention(%q: tensor<1x4x200x128xbf16, #fusion.shard<@tp, [[], [], [Stream(2)], []]>>,
                     %k: tensor<1x2x200x128xbf16, #fusion.shard<@tp, [[], [], [], []]>>,
                     %v: tensor<1x2x200x128xbf16, #fusion.shard<@tp, [[], [], [], []]>>)
    -> (tensor<1x4x200x128xbf16, #fusion.shard<@tp, [[], [], [Stream(2)], []]>>, tensor<1x4x200xf32, #fusion.shard<@tp, [[], [], [Stream(2)]]>>) {
  %o, %l = fusion.sdpa %q, %k, %v causal
      : (tensor<1x4x200x128xbf16, #fusion.shard<@tp, [[], [], [Stream(2)], []]>>, tensor<1x2x200x128xbf16, #fusion.shard<@tp, [[], [], [], []]>>, tensor<1x2x200x128xbf16, #fusion.shard<@tp, [[], [], [], []]>>)
      -> (tensor<1x4x200x128xbf16, #fusion.shard<@tp, [[], [], [Stream(2)], []]>>, tensor<1x4x200xf32, #fusion.shard<@tp, [[], [], [Stream(2)]]>>)
  return %o, %l : tensor<1x4x200x128xbf16, #fusion.shard<@tp, [[], [], [Stream(2)], []]>>, tensor<1x4x200xf32, #fusion.shard<@tp, [[], [], [Stream(2)]]>>
}
