// REQUIRES: fuser-run
// Inner-axis collectives in and around stream loops: an allgather of axis 1 per stream chunk of
// axis 0 (each chunk still has local extent 2 on axis 0), an allgather of axis 1 with stream
// chunks outside its device split ([Stream(2), DIDx]: a rank holds two pieces of the axis), and
// the reduce-scatter counterparts.
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/IN/[[Stream(2)], [DIDx]]/g' -e 's/OUT/[[Stream(2)], []]/g' -e "s/OP/set/" -e "s/SUMDIMS//" %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' -e 's/IN/[[], [Stream(2), DIDx]]/g' -e 's/OUT/[[], []]/g' -e "s/OP/set/" -e "s/SUMDIMS//" %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/IN/[[], [Stream(2), DIDx]]/g' -e 's/OUT/[[], [Stream(2)]]/g' -e "s/OP/set/" -e "s/SUMDIMS//" %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/IN/[[Stream(2)], []], partial = [DIDx]/g' -e 's/OUT/[[Stream(2)], [DIDx]]/g' -e 's/OP/sum/' -e 's/SUMDIMS/dims = []/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' -e 's/IN/[[], []], partial = [DIDx]/g' -e 's/OUT/[[], [Stream(2), DIDx]]/g' -e 's/OP/sum/' -e 's/SUMDIMS/dims = []/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/IN/[[], [Stream(2)]], partial = [DIDx]/g' -e 's/OUT/[[], [Stream(2), DIDx]]/g' -e 's/OP/sum/' -e 's/SUMDIMS/dims = []/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// The loop is there (one collective per chunk):
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/IN/[[Stream(2)], [DIDx]]/g' -e 's/OUT/[[Stream(2)], []]/g' -e "s/OP/set/" -e "s/SUMDIMS//" %s | fuser-opt --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOOP
// LOOP: host.for
// LOOP: comm.allgather {{.*}} : !host.view<2x8xf32, strides = [8, 1]>, !host.buf<2x2x8xf32>
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @f(%x: tensor<4x16xf32, #fusion.shard<@tp, IN>>) -> tensor<4x16xf32, #fusion.shard<@tp, OUT>> {
  %y = fusion.OP %x SUMDIMS : (tensor<4x16xf32, #fusion.shard<@tp, IN>>) -> tensor<4x16xf32, #fusion.shard<@tp, OUT>>
  return %y : tensor<4x16xf32, #fusion.shard<@tp, OUT>>
}
