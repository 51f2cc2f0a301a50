// A host-level program: loops over streams, buffers, views, collectives.
module {
  func.func @host_main(%buf_in: memref<4096x8192xbf16>, %w: memref<8192x8192xbf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    %rank = "host.rank"() : () -> index
    %out = "host.alloc"() {persistent} : () -> memref<4096x8192xbf16>
    %s_main = "host.get_current_stream"() : () -> !host.stream
    "host.for"(%c0, %c4, %c1) ({
    ^bb0(%i: index):
      %s = "host.stream_by_index"(%i) : (index) -> !host.stream
      "host.set_current_stream"(%s) : (!host.stream) -> ()
      "host.stream_wait"(%s, %s_main) : (!host.stream, !host.stream) -> ()
      %off = arith.muli %i, %c1024 : index
      %in_v = "host.shard_by_stream"(%buf_in, %i) {axis = 0 : i64, chunks = 4 : i64} : (memref<4096x8192xbf16>, index) -> memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>
      %out_v = "host.select"(%out, %off, %c1024) {axis = 0 : i64} : (memref<4096x8192xbf16>, index, index) -> memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>
      "host.matmul"(%in_v, %w, %out_v) : (memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>, memref<8192x8192xbf16>, memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>) -> ()
      %req = "comm.allreduce"(%out_v) {team = array<i64: 0, 1, 2, 3>, kind = "sum", backend = "nccl"} : (memref<1024x8192xbf16, strided<[8192, 1], offset: ?>>) -> !comm.request
      "comm.wait"(%req) : (!comm.request) -> ()
      "host.yield"() : () -> ()
    }) {unroll = 1 : i64} : (index, index, index) -> ()
    "host.set_current_stream"(%s_main) : (!host.stream) -> ()
    %next = arith.addi %rank, %c1 : index
    %prev = arith.subi %rank, %c1 : index
    %peer = arith.remui %next, %c4 : index
    %is_zero = arith.cmpi eq, %rank, %c0 : index
    %sel = arith.select %is_zero, %c4, %prev : index
    %peer_i32 = arith.index_cast %peer : index to i32
    %sr = "comm.send"(%out, %peer_i32) {backend = "cuda_ipc"} : (memref<4096x8192xbf16>, i32) -> !comm.request
    %rr = "comm.recv"(%out, %sel) {backend = "cuda_ipc"} : (memref<4096x8192xbf16>, index) -> !comm.request
    "comm.wait"(%sr) : (!comm.request) -> ()
    "comm.wait"(%rr) : (!comm.request) -> ()
    "host.dealloc"(%out) : (memref<4096x8192xbf16>) -> ()
    return
  }
  func.func private @kernel(memref<?xf32>, index) attributes {host.launch = "k0"}
  func.func @launch(%m: memref<?xf32>, %n: index) {
    call @kernel(%m, %n) : (memref<?xf32>, index) -> ()
    "host.if"(%n) ({
      "host.yield"() : () -> ()
    }, {
      %z = "host.alloc"() : () -> memref<16xf32>
      "host.dealloc"(%z) : (memref<16xf32>) -> ()
      "host.yield"() : () -> ()
    }) : (index) -> ()
    return
  }
}
