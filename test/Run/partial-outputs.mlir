// Outputs that are partial over the devices: fuser-run reduces the devices' shards with the
// sharding's `reduce` kind (and checks that replicas along the other mesh axes agree) before
// comparing with the reference. Here the partial input is returned as it is, so each device
// returns its random shard: gathering must reduce them with max (min, prod, sum) to get the
// input back.

// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: sed 's/reduce = max/reduce = min/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/reduce = max/reduce = prod/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/reduce = max/reduce = sum/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// On a 2x2 mesh, partial over DIDy and replicated along DIDx: two replicas of the shards
// (fusion-to-host lowers 1-D meshes only, so this one is the host program, written out).
// RUN: fuser-run %S/inputs/partial_max_2d_host.mlir --ranks 4 --check --reference %S/inputs/partial_max_2d.mlir | FileCheck %s
// RUN: sed 's/reduce = max/reduce = prod/g' %S/inputs/partial_max_2d_host.mlir | fuser-run - --ranks 4 --check --reference %S/inputs/partial_max_2d_prod.mlir | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [0, 1, 2, 3]

func.func @pass_partial_max(%x: tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>) -> tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>> {
  return %x : tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>
}
