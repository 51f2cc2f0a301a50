// comm-verify proves the all_to_all of a rows → columns → rows resharding (Ulysses-style
// sequence ↔ head parallelism) for every team size d = 2..8 (840 divides by all of them; with
// one device the resharding moves nothing and is a copy).
// DEVICES is replaced per run.

// RUN: sed -e 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify{team-size=2}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify{team-size=3}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify{team-size=4}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify{team-size=5}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify{team-size=6}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify{team-size=7}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify{team-size=8}))' | FileCheck %s

// CHECK-LABEL: func.func @rows_columns_rows
// CHECK:         comm.all_to_all
// CHECK:         comm.all_to_all
// CHECK:         return

fusion.mesh @tp = [DEVICES]
func.func @rows_columns_rows(%x: tensor<840x840xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<840x840xbf16, #fusion.shard<@tp, [[DIDx], []]>> {
  %c = fusion.set %x : (tensor<840x840xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<840x840xbf16, #fusion.shard<@tp, [[], [DIDx]]>>
  %r = fusion.set %c : (tensor<840x840xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<840x840xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  return %r : tensor<840x840xbf16, #fusion.shard<@tp, [[DIDx], []]>>
}
