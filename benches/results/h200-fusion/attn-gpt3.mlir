func.func @attn(%q: tensor<1x96x2048x128xbf16>, %k: tensor<1x96x2048x128xbf16>, %v: tensor<1x96x2048x128xbf16>) -> tensor<1x96x2048x128xbf16> {
  %o = fusion.sdpa %q, %k, %v causal : (tensor<1x96x2048x128xbf16>, tensor<1x96x2048x128xbf16>, tensor<1x96x2048x128xbf16>) -> tensor<1x96x2048x128xbf16>
  return %o : tensor<1x96x2048x128xbf16>
}
