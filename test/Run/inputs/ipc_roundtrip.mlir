// The reference of test/Run/inputs/ipc_roundtrip_host.mlir: the identity. Placeholders as there.
fusion.mesh @tp = [DEVICES]

func.func @roundtrip(%x: tensor<GROWSx8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<GROWSx8xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  return %x : tensor<GROWSx8xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
