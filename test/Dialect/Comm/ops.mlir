// RUN: fuser-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: fuser-opt %s --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --allow-unregistered-dialect --mlir-print-op-generic | fuser-opt --allow-unregistered-dialect | FileCheck %s
// RUN: fuser-opt %s --allow-unregistered-dialect | fuser-opt --allow-unregistered-dialect | FileCheck %s

// Every comm op, type and attribute in custom form, its generic form, and the generic form
// parsed back to the custom form. ./mlir-opt/ops.mlir checks the generic form with mlir-opt-19.

// CHECK-LABEL: func.func @collectives(
// CHECK-SAME:  %[[S:[a-z0-9]+]]: !host.buf<2x8xf32>, %[[F:[a-z0-9]+]]: !host.buf<8x8xf32>, %[[I:[a-z0-9]+]]: index, %[[V:[a-z0-9]+]]: !host.view<2x8xf32, strides = [16, 1]>, %[[T:[a-z0-9]+]]: !host.buf<4x2x8xf32>
func.func @collectives(%s: !host.buf<2x8xf32>, %f: !host.buf<8x8xf32>, %i: index,
                       %v: !host.view<2x8xf32, strides = [16, 1]>, %t: !host.buf<4x2x8xf32>) {
  // CHECK-NEXT: %[[R0:.*]] = comm.allgather %[[S]] into %[[F]] team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>
  // GENERIC: %{{[a-z0-9]+}} = "comm.allgather"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, team = array<i64: 0, 1, 2, 3>}> : (!host.buf<2x8xf32>, !host.buf<8x8xf32>) -> !comm.request
  %r0 = comm.allgather %s into %f team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>
  // CHECK-NEXT: comm.allgather %[[S]] into %[[T]] team = [4, 5, 6, 7] : !host.buf<2x8xf32>, !host.buf<4x2x8xf32>
  %r1 = comm.allgather %s into %t team = [4, 5, 6, 7] : !host.buf<2x8xf32>, !host.buf<4x2x8xf32>
  // CHECK-NEXT: comm.allreduce sum %[[S]] into %[[S]] team = [0, 1] : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  // GENERIC: "comm.allreduce"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, reduction = #comm.reduction<sum>, team = array<i64: 0, 1>}> : (!host.buf<2x8xf32>, !host.buf<2x8xf32>) -> !comm.request
  %r2 = comm.allreduce sum %s into %s team = [0, 1] : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  // CHECK-NEXT: comm.allreduce max %[[S]] into %[[V]] team = [1, 0] backend = cuda_ipc {test.tag = 1 : i32} : !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>
  // GENERIC: "comm.allreduce"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<cuda_ipc>, reduction = #comm.reduction<max>, team = array<i64: 1, 0>}> {test.tag = 1 : i32}
  %r3 = comm.allreduce max %s into %v team = [1, 0] backend = cuda_ipc {test.tag = 1 : i32} : !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>
  // CHECK-NEXT: comm.reduce_scatter prod %[[F]] into %[[S]] team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<2x8xf32>
  // GENERIC: "comm.reduce_scatter"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, reduction = #comm.reduction<prod>, team = array<i64: 0, 1, 2, 3>}>
  %r4 = comm.reduce_scatter prod %f into %s team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<2x8xf32>
  // CHECK-NEXT: comm.broadcast %[[S]] into %[[V]] root %[[I]] team = [2, 3] : !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>
  // GENERIC: "comm.broadcast"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, team = array<i64: 2, 3>}> : (!host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>, index) -> !comm.request
  %r5 = comm.broadcast %s into %v root %i team = [2, 3] : !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>
  // CHECK-NEXT: comm.reduce min %[[S]] into %[[S]] root %[[I]] team = [0, 1] : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  // GENERIC: "comm.reduce"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, reduction = #comm.reduction<min>, team = array<i64: 0, 1>}>
  %r6 = comm.reduce min %s into %s root %i team = [0, 1] : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  // CHECK-NEXT: comm.gather %[[S]] into %[[F]] root %[[I]] team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>
  // GENERIC: "comm.gather"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, team = array<i64: 0, 1, 2, 3>}>
  %r7 = comm.gather %s into %f root %i team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>
  // CHECK-NEXT: comm.scatter %[[F]] into %[[S]] root %[[I]] team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<2x8xf32>
  // GENERIC: "comm.scatter"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, team = array<i64: 0, 1, 2, 3>}>
  %r8 = comm.scatter %f into %s root %i team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<2x8xf32>
  // CHECK-NEXT: comm.all_to_all %[[F]] into %[[F]] team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<8x8xf32>
  // GENERIC: "comm.all_to_all"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, team = array<i64: 0, 1, 2, 3>}>
  %r9 = comm.all_to_all %f into %f team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<8x8xf32>
  // CHECK-NEXT: comm.collective_permute %[[S]] into %[[V]] send_to %[[I]] recv_from %[[I]] team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>
  // GENERIC: "comm.collective_permute"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, team = array<i64: 0, 1, 2, 3>}> : (!host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>, index, index) -> !comm.request
  %r10 = comm.collective_permute %s into %v send_to %i recv_from %i team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [16, 1]>
  // CHECK-NEXT: comm.wait %[[R0]], %{{.*}}, %{{.*}}
  // GENERIC: "comm.wait"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (!comm.request, !comm.request, !comm.request) -> ()
  comm.wait %r0, %r1, %r2
  // CHECK-NEXT: comm.wait %{{.*}} {test.tag}
  // GENERIC: "comm.wait"(%{{[a-z0-9]+}}) {test.tag} : (!comm.request) -> ()
  comm.wait %r3 {test.tag}
  comm.wait %r4, %r5, %r6, %r7, %r8, %r9, %r10
  return
}

// Every collective has the copy-engine implementation (backend = cuda_ipc).
// CHECK-LABEL: func.func @copy_engine(
// CHECK-NEXT: comm.broadcast %{{.*}} into %{{.*}} root %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
// CHECK-NEXT: comm.reduce sum %{{.*}} into %{{.*}} root %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
// CHECK-NEXT: comm.gather %{{.*}} into %{{.*}} root %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<8x8xf32>
// CHECK-NEXT: comm.scatter %{{.*}} into %{{.*}} root %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<8x8xf32>, !host.buf<2x8xf32>
// CHECK-NEXT: comm.all_to_all %{{.*}} into %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<8x8xf32>, !host.buf<8x8xf32>
// CHECK-NEXT: comm.collective_permute %{{.*}} into %{{.*}} send_to %{{.*}} recv_from %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
// GENERIC: "comm.broadcast"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<cuda_ipc>, team = array<i64: 0, 1, 2, 3>}>
func.func @copy_engine(%s: !host.buf<2x8xf32>, %t: !host.buf<2x8xf32>, %f: !host.buf<8x8xf32>, %g: !host.buf<8x8xf32>, %i: index) {
  %r0 = comm.broadcast %s into %t root %i team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  %r1 = comm.reduce sum %s into %t root %i team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  %r2 = comm.gather %s into %f root %i team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<8x8xf32>
  %r3 = comm.scatter %f into %s root %i team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<8x8xf32>, !host.buf<2x8xf32>
  %r4 = comm.all_to_all %f into %g team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<8x8xf32>, !host.buf<8x8xf32>
  %r5 = comm.collective_permute %s into %t send_to %i recv_from %i team = [0, 1, 2, 3] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  comm.wait %r0, %r1, %r2, %r3, %r4, %r5
  return
}

// Dynamic extents are compared only where static on both sides.
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:  comm.allgather %{{.*}} into %{{.*}} team = [0, 1] : !host.buf<?x8xbf16>, !host.buf<4x?xbf16>
func.func @dynamic(%a: !host.buf<?x8xbf16>, %b: !host.buf<4x?xbf16>) {
  %r = comm.allgather %a into %b team = [0, 1] : !host.buf<?x8xbf16>, !host.buf<4x?xbf16>
  comm.wait %r
  return
}

// CHECK-LABEL: func.func @p2p(
// CHECK-SAME:  %[[B:[a-z0-9]+]]: !host.buf<2x8xf32, ipc>, %[[P:[a-z0-9]+]]: index
func.func @p2p(%b: !host.buf<2x8xf32, ipc>, %p: index) {
  // CHECK-NEXT: %[[R0:.*]] = comm.send %[[B]] to %[[P]] : !host.buf<2x8xf32, ipc>
  // GENERIC: "comm.send"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>}> : (!host.buf<2x8xf32, ipc>, index) -> !comm.request
  %r0 = comm.send %b to %p : !host.buf<2x8xf32, ipc>
  // CHECK-NEXT: comm.recv %[[B]] from %[[P]] : !host.buf<2x8xf32, ipc>
  // GENERIC: "comm.recv"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>}> : (!host.buf<2x8xf32, ipc>, index) -> !comm.request
  %r1 = comm.recv %b from %p : !host.buf<2x8xf32, ipc>
  // CHECK-NEXT: comm.send %[[B]] to %[[P]] backend = cuda_ipc : !host.buf<2x8xf32, ipc>
  // GENERIC: "comm.send"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<cuda_ipc>}>
  %r2 = comm.send %b to %p backend = cuda_ipc : !host.buf<2x8xf32, ipc>
  // CHECK-NEXT: comm.recv %[[B]] from %[[P]] backend = cuda_ipc protocol = put : !host.buf<2x8xf32, ipc>
  // GENERIC: "comm.recv"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<cuda_ipc>, protocol = #comm.protocol<put>}>
  %r3 = comm.recv %b from %p backend = cuda_ipc protocol = put : !host.buf<2x8xf32, ipc>
  // CHECK-NEXT: comm.send %[[B]] to %[[P]] backend = cuda_ipc protocol = get : !host.buf<2x8xf32, ipc>
  %r4 = comm.send %b to %p backend = cuda_ipc protocol = get : !host.buf<2x8xf32, ipc>
  // CHECK-NEXT: comm.wait
  comm.wait %r0, %r1, %r2, %r3, %r4
  return
}

// CHECK-LABEL: func.func @share_handles(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: !host.buf<8xf32, ipc>, %[[B:[a-z0-9]+]]: !host.buf<8xf32, ipc>, %[[P:[a-z0-9]+]]: index, %[[Q:[a-z0-9]+]]: index
func.func @share_handles(%a: !host.buf<8xf32, ipc>, %b: !host.buf<8xf32, ipc>, %p: index, %q: index) {
  // CHECK-NEXT: comm.share_handles send(%[[A]] to %[[P]], %[[A]] to %[[Q]]) recv(%[[B]] from %[[Q]]) backend = cuda_ipc : !host.buf<8xf32, ipc>, !host.buf<8xf32, ipc>, !host.buf<8xf32, ipc>
  // GENERIC: "comm.share_handles"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<cuda_ipc>, operandSegmentSizes = array<i32: 2, 2, 1, 1>}> : (!host.buf<8xf32, ipc>, !host.buf<8xf32, ipc>, index, index, !host.buf<8xf32, ipc>, index) -> ()
  comm.share_handles send(%a to %p, %a to %q) recv(%b from %q) backend = cuda_ipc : !host.buf<8xf32, ipc>, !host.buf<8xf32, ipc>, !host.buf<8xf32, ipc>
  // CHECK-NEXT: comm.share_handles recv(%[[B]] from %[[P]]) backend = cuda_ipc {test.tag} : !host.buf<8xf32, ipc>
  // GENERIC: "comm.share_handles"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<cuda_ipc>, operandSegmentSizes = array<i32: 0, 0, 1, 1>}> {test.tag}
  comm.share_handles recv(%b from %p) backend = cuda_ipc {test.tag} : !host.buf<8xf32, ipc>
  // CHECK-NEXT: comm.share_handles send(%[[A]] to %[[P]]) backend = cuda_ipc : !host.buf<8xf32, ipc>
  comm.share_handles send(%a to %p) recv() backend = cuda_ipc : !host.buf<8xf32, ipc>
  // CHECK-NEXT: comm.share_handles backend = cuda_ipc
  // GENERIC: "comm.share_handles"() <{backend = #comm.backend<cuda_ipc>, operandSegmentSizes = array<i32: 0, 0, 0, 0>}> : () -> ()
  comm.share_handles backend = cuda_ipc
  return
}

// CHECK-LABEL: func.func @group(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: !host.buf<8xf32>, %[[B:[a-z0-9]+]]: !host.buf<8xf32>, %[[P:[a-z0-9]+]]: index
func.func @group(%a: !host.buf<8xf32>, %b: !host.buf<8xf32>, %p: index) {
  // CHECK-NEXT: %[[G:.*]] = comm.group {
  // CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
  // CHECK-NEXT:   %[[N:.*]] = arith.addi %[[P]], %[[C1]] : index
  // CHECK-NEXT:   comm.send %[[A]] to %[[N]] : !host.buf<8xf32>
  // CHECK-NEXT:   comm.recv %[[B]] from %[[P]] : !host.buf<8xf32>
  // CHECK-NEXT:   comm.allreduce sum %[[A]] into %[[A]] team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
  // CHECK-NEXT: }
  // GENERIC: %{{.*}} = "comm.group"() ({
  // GENERIC:   "comm.send"
  // GENERIC: }) : () -> !comm.request
  %g = comm.group {
    %c1 = arith.constant 1 : index
    %n = arith.addi %p, %c1 : index
    %s = comm.send %a to %n : !host.buf<8xf32>
    %r = comm.recv %b from %p : !host.buf<8xf32>
    %x = comm.allreduce sum %a into %a team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
  }
  // CHECK-NEXT: comm.wait %[[G]]
  comm.wait %g
  // CHECK-NEXT: %[[E:.*]] = comm.group {
  // CHECK-NEXT: } {test.tag}
  // GENERIC: "comm.group"() ({
  // GENERIC-NEXT: ^bb0:
  // GENERIC-NEXT: }) {test.tag} : () -> !comm.request
  %e = comm.group {
  } {test.tag}
  // CHECK-NEXT: comm.wait %[[E]], %[[G]]
  comm.wait %e, %g
  return
}

// The attributes and the type, on their own (an unregistered op holds them).
// CHECK-LABEL: func.func @attributes()
// CHECK-NEXT: "test.hold"() {backend = #comm.backend<cuda_ipc>, nccl = #comm.backend<nccl>, protocol = #comm.protocol<get>, put = #comm.protocol<put>, r0 = #comm.reduction<sum>, r1 = #comm.reduction<prod>, r2 = #comm.reduction<min>, r3 = #comm.reduction<max>} : () -> !comm.request
// GENERIC: "test.hold"() {backend = #comm.backend<cuda_ipc>, nccl = #comm.backend<nccl>, protocol = #comm.protocol<get>, put = #comm.protocol<put>, r0 = #comm.reduction<sum>, r1 = #comm.reduction<prod>, r2 = #comm.reduction<min>, r3 = #comm.reduction<max>} : () -> !comm.request
func.func @attributes() {
  %0 = "test.hold"() {r0 = #comm.reduction<sum>, r1 = #comm.reduction<prod>, r2 = #comm.reduction<min>, r3 = #comm.reduction< max >,
                      backend = #comm.backend<cuda_ipc>, nccl = #comm.backend<nccl>,
                      protocol = #comm.protocol<get>, put = #comm.protocol<put>} : () -> !comm.request
  return
}

// Generic input: the backend is materialized when absent, inherent attributes in the
// discardable dictionary become properties.
// CHECK-LABEL: func.func @generic_input(
// CHECK-NEXT: comm.allgather %{{.*}} into %{{.*}} team = [0, 1] : !host.buf<2xf32>, !host.buf<4xf32>
// CHECK-NEXT: comm.send %{{.*}} to %{{.*}} backend = cuda_ipc : !host.buf<2xf32>
// CHECK-NEXT: comm.wait
// GENERIC-LABEL: "func.func"() <{function_type = (!host.buf<2xf32>, !host.buf<4xf32>, index) -> (), sym_name = "generic_input"}>
// GENERIC: "comm.allgather"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<nccl>, team = array<i64: 0, 1>}>
// GENERIC: "comm.send"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) <{backend = #comm.backend<cuda_ipc>}>
func.func @generic_input(%a: !host.buf<2xf32>, %b: !host.buf<4xf32>, %p: index) {
  %0 = "comm.allgather"(%a, %b) <{team = array<i64: 0, 1>}> : (!host.buf<2xf32>, !host.buf<4xf32>) -> !comm.request
  %1 = "comm.send"(%a, %p) {backend = #comm.backend<cuda_ipc>} : (!host.buf<2xf32>, index) -> !comm.request
  "comm.wait"(%0, %1) : (!comm.request, !comm.request) -> ()
  return
}
