// REQUIRES: fuser-run
// Slicing an axis that is split over the devices: the slice reads the axis whole, so
// fusion-decompose-resharding gathers it first (an allgather), and the result matches the
// unsharded reference. fusion-to-host on its own
// (without the decomposition) refuses the split axis with a diagnostic naming the op and axis.
// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// CHECK: check: PASS (max rel err 0.000e0)

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding))' | FileCheck %s --check-prefix=DECOMPOSE
// DECOMPOSE:      %[[G:.*]] = fusion.set %arg0 : (tensor<16x8xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<16x8xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// DECOMPOSE-NEXT: fusion.slice %[[G]] offsets = [4, 0] sizes = [8, 8]
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOWER
// LOWER:      comm.allgather %arg0 into %[[G:.*]] team = [0, 1, 2, 3] : !host.buf<4x8xf32>, !host.buf<16x8xf32>
// LOWER:      host.slice %[[G]][4, 0] [8, 8] [1, 1] : !host.buf<16x8xf32>

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(fusion-to-host))' 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: 'fusion.slice' reads axis 0 of operand #0 whole, but axis 0 of operand #0 is split [DIDx]; gather it first

// A slice of a stream-split axis cannot be honoured (a loop would compute one chunk per
// iteration): a diagnostic, not a wrong lowering.
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[Stream(2)], []]/g' %s | not fuser-opt --pass-pipeline='builtin.module(tp-default)' 2>&1 | FileCheck %s --check-prefix=STREAM
// STREAM: error: 'fusion.slice' reads axis 0 of operand #0 whole, but axis 0 of operand #0 is split [Stream(2)]
// Cutting a split inner axis gathers that axis through a staging buffer whose leading axis
// is the rank (docs/dev/lowering.md §5), at a cut that is not a shard boundary.
// RUN: sed 's/tensor<16x8xf32, #fusion.shard<@tp, \[\[DIDx\], \[\]\]>>/tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>/g; s/offsets = \[4, 0\] sizes = \[8, 8\]/offsets = [0, 6] sizes = [8, 8]/' %s | fuser-run - --ranks 4 --check 2>&1 | FileCheck %s

fusion.mesh @tp = [0, 1, 2, 3]
func.func @cut_split_axis(%x: tensor<16x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[], []]>> {
  %k = fusion.slice %x offsets = [4, 0] sizes = [8, 8] : (tensor<16x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[], []]>>
  return %k : tensor<8x8xf32, #fusion.shard<@tp, [[], []]>>
}
