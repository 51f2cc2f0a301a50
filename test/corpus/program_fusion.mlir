// A tensor-level program with sharding encodings (fusion-like, unregistered).
module @tp attributes {fusion.mesh_shape = array<i64: 4>} {
  "fusion.mesh"() {sym_name = "tp", devices = array<i64: 0, 1, 2, 3>} : () -> ()
  func.func @mlp(%x: tensor<4096x8192xbf16, #fusion.shard<@tp, [[DIDx], []]>>, %w0: tensor<8192x32768xbf16>, %w1: tensor<32768x8192xbf16>) -> tensor<4096x8192xbf16> {
    %0 = "fusion.set"(%x) : (tensor<4096x8192xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4096x8192xbf16>
    %1 = "fusion.matmul"(%0, %w0) : (tensor<4096x8192xbf16>, tensor<8192x32768xbf16>) -> tensor<4096x32768xbf16>
    %2 = "fusion.cast"(%1) {to = f32} : (tensor<4096x32768xbf16>) -> tensor<4096x32768xf32>
    %3 = "fusion.mul"(%2, %2) : (tensor<4096x32768xf32>, tensor<4096x32768xf32>) -> tensor<4096x32768xf32>
    %4 = "fusion.cast"(%3) {to = bf16} : (tensor<4096x32768xf32>) -> tensor<4096x32768xbf16>
    %5 = "fusion.linear"(%4, %w1) {bias = false} : (tensor<4096x32768xbf16>, tensor<32768x8192xbf16>) -> tensor<4096x8192xbf16, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
    %6 = "fusion.sum"(%5) {axes = [0 : i64]} : (tensor<4096x8192xbf16, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<4096x8192xbf16>
    %7 = "fusion.add"(%6, %0) : (tensor<4096x8192xbf16>, tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16>
    return %7 : tensor<4096x8192xbf16>
  }
  func.func @stream(%a: tensor<1024x512xf32, #fusion.shard<@tp, [[Stream(4)], []]>>) -> tensor<1024x512xf32> {
    %r = "fusion.reshape"(%a) {shape = array<i64: 1024, 512>} : (tensor<1024x512xf32, #fusion.shard<@tp, [[Stream(4)], []]>>) -> tensor<1024x512xf32>
    %p = "fusion.permute"(%r) {perm = array<i64: 1, 0>} : (tensor<1024x512xf32>) -> tensor<512x1024xf32>
    %b = "fusion.broadcast"(%p) {dims = [0, 1]} : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %s = "fusion.sub"(%b, %b) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %d = "fusion.div"(%s, %b) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %t = "fusion.permute"(%d) {perm = array<i64: 1, 0>} : (tensor<512x1024xf32>) -> tensor<1024x512xf32>
    return %t : tensor<1024x512xf32>
  }
}
