// A host-level program: loops over streams, buffers, views, collectives.
module {
  func.func @host_main(%buf_in: memref<4096x8192xbf16>, %w: memref<8192x8192xbf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    %rank = "xhost.rank"() : () -> index
    %out = "xhost.alloc"() {persistent} : () -> memref<4096x8192xbf16>
    %s_main = "xhost.get_current_stream"() : () -> !xhost.stream
    "xhost.for"(%c0, %c4, %c1) ({
    ^bb0(%i: index):
      %s = "xhost.stream_by_index"(%i) : (index) -> !xhost.stream
      "xhost.set_current_stream"(%s) : (!xhost.stream) -> ()
      "xhost.stream_wait"(%s, %s_main) : (!xhost.stream, !xhost.stream) -> ()
      %off = arith.muli %i, %c1024 : index
      %in_v = "xhost.shard_by_stream"(%buf_in, %i) {axis = 0 : i64, chunks = 4 : i64} : (memref<4096x8192xbf16>, index) -> memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>
      %out_v = "xhost.select"(%out, %off, %c1024) {axis = 0 : i64} : (memref<4096x8192xbf16>, index, index) -> memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>
      "xhost.matmul"(%in_v, %w, %out_v) : (memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>, memref<8192x8192xbf16>, memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>) -> ()
      %req = "xcomm.allreduce"(%out_v) {team = array<i64: 0, 1, 2, 3>, kind = "sum", backend = "nccl"} : (memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>) -> !xcomm.request
      "xcomm.wait"(%req) : (!xcomm.request) -> ()
      "xhost.yield"() : () -> ()
    }) {unroll = 1 : i64} : (index, index, index) -> ()
    "xhost.set_current_stream"(%s_main) : (!xhost.stream) -> ()
    %next = arith.addi %rank, %c1 : index
    %prev = arith.subi %rank, %c1 : index
    %peer = arith.remui %next, %c4 : index
    %is_zero = arith.cmpi eq, %rank, %c0 : index
    %sel = arith.select %is_zero, %c4, %prev : index
    %peer_i32 = arith.index_cast %peer : index to i32
    %sr = "xcomm.send"(%out, %peer_i32) {backend = "cuda_ipc"} : (memref<4096x8192xbf16>, i32) -> !xcomm.request
    %rr = "xcomm.recv"(%out, %sel) {backend = "cuda_ipc"} : (memref<4096x8192xbf16>, index) -> !xcomm.request
    "xcomm.wait"(%sr) : (!xcomm.request) -> ()
    "xcomm.wait"(%rr) : (!xcomm.request) -> ()
    "xhost.dealloc"(%out) : (memref<4096x8192xbf16>) -> ()
    return
  }
  func.func private @kernel(memref<?xf32>, index) attributes {xhost.launch = "k0"}
  func.func @launch(%m: memref<?xf32>, %n: index) {
    call @kernel(%m, %n) : (memref<?xf32>, index) -> ()
    "xhost.if"(%n) ({
      "xhost.yield"() : () -> ()
    }, {
      %z = "xhost.alloc"() : () -> memref<16xf32>
      "xhost.dealloc"(%z) : (memref<16xf32>) -> ()
      "xhost.yield"() : () -> ()
    }) : (index) -> ()
    return
  }
}
