// A file with only alias definitions.
!a = i32
!b = tensor<4x!a>
#c = 42 : i64
#d = affine_map<(d0) -> (d0)>
#e = loc("only.mlir":1:1)
