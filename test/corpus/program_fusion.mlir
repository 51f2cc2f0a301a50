// A tensor-level program with sharding encodings (fusion-like, unregistered).
module @tp attributes {xfusion.mesh_shape = array<i64: 4>} {
  "xfusion.mesh"() {sym_name = "tp", devices = array<i64: 0, 1, 2, 3>} : () -> ()
  func.func @mlp(%x: tensor<4096x8192xbf16, #xfusion.shard<@tp, [[DIDx], []]>>, %w0: tensor<8192x32768xbf16>, %w1: tensor<32768x8192xbf16>) -> tensor<4096x8192xbf16> {
    %0 = "xfusion.set"(%x) : (tensor<4096x8192xbf16, #xfusion.shard<@tp, [[DIDx], []]>>) -> tensor<4096x8192xbf16>
    %1 = "xfusion.matmul"(%0, %w0) : (tensor<4096x8192xbf16>, tensor<8192x32768xbf16>) -> tensor<4096x32768xbf16>
    %2 = "xfusion.cast"(%1) {to = f32} : (tensor<4096x32768xbf16>) -> tensor<4096x32768xf32>
    %3 = "xfusion.mul"(%2, %2) : (tensor<4096x32768xf32>, tensor<4096x32768xf32>) -> tensor<4096x32768xf32>
    %4 = "xfusion.cast"(%3) {to = bf16} : (tensor<4096x32768xf32>) -> tensor<4096x32768xbf16>
    %5 = "xfusion.linear"(%4, %w1) {bias = false} : (tensor<4096x32768xbf16>, tensor<32768x8192xbf16>) -> tensor<4096x8192xbf16, #xfusion.shard<@tp, [[], []], partial = [DIDx]>>
    %6 = "xfusion.sum"(%5) {axes = [0 : i64]} : (tensor<4096x8192xbf16, #xfusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<4096x8192xbf16>
    %7 = "xfusion.add"(%6, %0) : (tensor<4096x8192xbf16>, tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16>
    return %7 : tensor<4096x8192xbf16>
  }
  func.func @stream(%a: tensor<1024x512xf32, #xfusion.shard<@tp, [[Stream(4)], []]>>) -> tensor<1024x512xf32> {
    %r = "xfusion.reshape"(%a) {shape = array<i64: 1024, 512>} : (tensor<1024x512xf32, #xfusion.shard<@tp, [[Stream(4)], []]>>) -> tensor<1024x512xf32>
    %p = "xfusion.permute"(%r) {perm = array<i64: 1, 0>} : (tensor<1024x512xf32>) -> tensor<512x1024xf32>
    %b = "xfusion.broadcast"(%p) {dims = [0, 1]} : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %s = "xfusion.sub"(%b, %b) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %d = "xfusion.div"(%s, %b) : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %t = "xfusion.permute"(%d) {perm = array<i64: 1, 0>} : (tensor<512x1024xf32>) -> tensor<1024x512xf32>
    return %t : tensor<1024x512xf32>
  }
}
