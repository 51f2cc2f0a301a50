// A pass's error carries the "see current operation" note of the op it is about, as
// mlir-opt's `op->emitError` does: a failed lowering shows the op it could not lower, never
// the half-rewritten function it is anchored on, and the pass manager adds no note of its own
// (symbol-dce's error has exactly one note, as with mlir-opt-19).

// RUN: not fuser-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(fusion-to-host))' 2>&1 | FileCheck %s --check-prefix=LOWER --implicit-check-not='host.'
// RUN: not fuser-opt %s --allow-unregistered-dialect --symbol-dce 2>&1 | FileCheck %s --check-prefix=DCE

// fusion-to-host emits the host ops of %a before it finds that %y cannot be lowered.
// LOWER:      current-op-note.mlir:[[# @LINE + 6]]:8: error: resharding in a stream loop of 2 chunks needs the Stream split of axis 0 outermost, got [DIDx]
// LOWER-NEXT: %y = fusion.set %a
// LOWER:      current-op-note.mlir:[[# @LINE + 4]]:8: note: see current operation: %{{[0-9]+}} = "fusion.set"(%{{[0-9]+}}) : (tensor<64x8xf32, #fusion.shard<@tp, {{.*}}DIDx{{.*}}>>) -> tensor<64x8xf32, #fusion.shard<@tp, {{.*}}Stream(2){{.*}}>>{{$}}
fusion.mesh @tp = [0, 1, 2, 3]
func.func @did_to_stream_chunk_count(%x: tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %a = fusion.neg %x : (tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %y = fusion.set %a : (tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

// DCE:      current-op-note.mlir:[[# @LINE + 7]]:1: error: operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses
// DCE-NEXT: func.func @f() {
// DCE-NEXT: ^
// DCE-NEXT: current-op-note.mlir:[[# @LINE + 4]]:1: note: see current operation:
// DCE-NEXT: "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
// DCE:      {{^}}}) : () -> (){{$}}
// DCE-NOT:  {{.}}
func.func @f() {
  "foo.op"() ({
    "foo.inner"() : () -> ()
  }) : () -> ()
  return
}
