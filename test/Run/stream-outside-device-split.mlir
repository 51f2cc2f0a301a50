// Reshardings of an axis whose Stream split lies outside its device split (found by
// fuser-lowerfuzz, seed 1027). With `[Stream(3), DIDx]` on 12 rows and 2 devices, rank r
// holds rows {4s + 2r, 4s + 2r + 1 : s < 3}: three pieces, not one block. A plain allgather
// concatenated the ranks' buffers ([r0 pieces, r1 pieces]): wrong values. The lowering now
// gathers in rank order and interleaves through a view. A reduce-scatter or slice *into* such
// a layout runs in the stream loop of the result, one chunk (one piece) per iteration, and
// was right before; its RUN lines keep it so.

// REQUIRES: fuser-run
// Allgather (the fuzzer's program had it behind a linear).
// RUN: sed -e 's/SRC/[[Stream(3), DIDx], []]/' -e 's/DST/[[], []]/' %s | fuser-run - --ranks 2 --check --check-races | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/SRC/[[Stream(3), DIDx], []]/' -e 's/DST/[[], []]/' -e 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/' -e 's/12x4/24x4/g' %s | fuser-run - --ranks 4 --check --check-races | FileCheck %s --check-prefix=PASS
// Reduce-scatter of a partial value into the interleaved layout.
// RUN: sed -e 's/SRC/[[], []], partial = [DIDx]/' -e 's/DST/[[Stream(3), DIDx], []]/' %s | fuser-run - --ranks 2 --check --check-races | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/SRC/[[], []], partial = [DIDx]/' -e 's/DST/[[Stream(3), DIDx], []]/' -e 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/' -e 's/12x4/24x4/g' %s | fuser-run - --ranks 4 --check --check-races | FileCheck %s --check-prefix=PASS
// Slice of a replicated value.
// RUN: sed -e 's/SRC/[[], []]/' -e 's/DST/[[Stream(3), DIDx], []]/' %s | fuser-run - --ranks 2 --check --check-races | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

// The lowered allgather: gathered in rank order, interleaved by a copy through a view.
// RUN: sed -e 's/SRC/[[Stream(3), DIDx], []]/' -e 's/DST/[[], []]/' %s | fuser-opt --pass-pipeline='builtin.module(tp-default,func.func(comm-verify))' | FileCheck %s --check-prefix=GATHER
// GATHER:      comm.allgather %arg0 into %[[G:[0-9]+]] team = [0, 1] : !host.buf<6x4xf32>, !host.buf<12x4xf32>
// GATHER:      %[[S:.*]] = host.reshape %[[G]] : !host.buf<12x4xf32> -> !host.view<2x3x2x4xf32
// GATHER:      %[[P:.*]] = host.permute %[[S]] dims = [1, 0, 2, 3]
// GATHER:      host.copy %[[P]], %{{.*}} : !host.view<3x2x2x4xf32

// An all_to_all out of such an axis is refused with a diagnostic, not lowered wrongly.
// RUN: sed -e 's/SRC/[[Stream(3), DIDx], []]/' -e 's/DST/[[], [DIDx]]/' %s | not fuser-opt --pass-pipeline='builtin.module(tp-default)' 2>&1 | FileCheck %s --check-prefix=A2A
// A2A: error: an all_to_all from [Stream(3), DIDx] on axis 0 to [DIDx] on axis 1 needs the device split outermost on both axes; not lowerable

fusion.mesh @tp = [0, 1]

func.func @reshard(%x: tensor<12x4xf32, #fusion.shard<@tp, SRC>>) -> tensor<12x4xf32, #fusion.shard<@tp, DST>> {
  %y = fusion.set %x : (tensor<12x4xf32, #fusion.shard<@tp, SRC>>) -> tensor<12x4xf32, #fusion.shard<@tp, DST>>
  return %y : tensor<12x4xf32, #fusion.shard<@tp, DST>>
}
