// REQUIRES: fuser-run
// A column-parallel linear followed by gelu_tanh, and one followed by a residual add, run
// through host-fuse-epilogue (the cpu backend computes the fused epilogues) and checked against
// the unfused reference; in f32 and bf16, on 1 and 2 ranks, with the rows also split in
// stream chunks (the fused linears then sit in the loop bodies).
// RUN: sed 's/ELT/f32/g; s/ROWS//g; s/DEVICES/0/' %s | fuser-run - --ranks 1 --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse-epilogue, host-assign-streams, host-insert-dealloc))' | FileCheck %s
// RUN: sed 's/ELT/f32/g; s/ROWS//g; s/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse-epilogue, host-assign-streams, host-insert-dealloc))' | FileCheck %s
// RUN: sed 's/ELT/bf16/g; s/ROWS//g; s/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse-epilogue, host-assign-streams, host-insert-dealloc))' | FileCheck %s
// RUN: sed 's/ELT/bf16/g; s/ROWS/Stream(2)/g; s/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse-epilogue, host-assign-streams, host-insert-dealloc))' | FileCheck %s
// CHECK: check: PASS
// The lowered program: both elementwise ops are gone into the linears.
// RUN: sed 's/ELT/bf16/g; s/ROWS//g; s/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse-epilogue))' | FileCheck %s --check-prefix=HOST
// HOST-LABEL: func.func @mlp
// HOST-NOT:   host.elementwise
// HOST:       host.linear %arg0, %arg1, %arg2 into %{{.*}} epilogue = gelu_tanh : !host.buf<8x16xbf16>, !host.buf<16x16xbf16>, !host.buf<16xbf16>, !host.buf<8x16xbf16>
// HOST-NOT:   host.elementwise
// HOST:       host.linear %arg0, %arg1 into %{{.*}} residual %arg3 : !host.buf<8x16xbf16>, !host.buf<16x16xbf16>, !host.buf<8x16xbf16>, !host.buf<8x16xbf16>
// HOST-NOT:   host.elementwise
// HOST:       return
// RUN: sed 's/ELT/bf16/g; s/ROWS/Stream(2)/g; s/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse-epilogue))' | FileCheck %s --check-prefix=LOOP
// LOOP-LABEL: func.func @mlp
// LOOP-NOT:   host.elementwise
// LOOP:       host.for
// LOOP:       host.linear {{.*}} epilogue = gelu_tanh
// LOOP:       host.for
// LOOP:       host.linear {{.*}} residual
// LOOP-NOT:   host.elementwise
// LOOP:       return

fusion.mesh @tp = [DEVICES]
func.func @mlp(%x: tensor<8x16xELT, #fusion.shard<@tp, [[ROWS], []]>>, %w1: tensor<32x16xELT, #fusion.shard<@tp, [[DIDx], []]>>,
               %b1: tensor<32xELT, #fusion.shard<@tp, [[DIDx]]>>, %h: tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>)
    -> (tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>, tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>) {
  %a = fusion.linear %x, %w1, %b1 : (tensor<8x16xELT, #fusion.shard<@tp, [[ROWS], []]>>, tensor<32x16xELT, #fusion.shard<@tp, [[DIDx], []]>>, tensor<32xELT, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>
  %g = fusion.gelu %a {approximate = "tanh"} : (tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>) -> tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>
  %o = fusion.linear %x, %w1 : (tensor<8x16xELT, #fusion.shard<@tp, [[ROWS], []]>>, tensor<32x16xELT, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>
  %r = fusion.add %o, %h : (tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>, tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>) -> tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>
  return %g, %r : tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>, tensor<8x32xELT, #fusion.shard<@tp, [[ROWS], [DIDx]]>>
}
