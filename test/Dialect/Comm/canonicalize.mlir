// RUN: fuser-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// A collective over one device with input == output does nothing: it and its waits go.
// CHECK-LABEL: func.func @team_of_one_in_place(
// CHECK-NEXT:  return
func.func @team_of_one_in_place(%a: !host.buf<8xf32>, %c: index) {
  %r0 = comm.allreduce sum %a into %a team = [3] : !host.buf<8xf32>, !host.buf<8xf32>
  %r1 = comm.broadcast %a into %a root %c team = [0] : !host.buf<8xf32>, !host.buf<8xf32>
  %r2 = comm.allgather %a into %a team = [1] : !host.buf<8xf32>, !host.buf<8xf32>
  %r3 = comm.reduce_scatter max %a into %a team = [1] : !host.buf<8xf32>, !host.buf<8xf32>
  %r4 = comm.all_to_all %a into %a team = [1] : !host.buf<8xf32>, !host.buf<8xf32>
  %r5 = comm.collective_permute %a into %a send_to %c recv_from %c team = [1] : !host.buf<8xf32>, !host.buf<8xf32>
  %r6 = comm.reduce prod %a into %a root %c team = [2] : !host.buf<8xf32>, !host.buf<8xf32>
  %r7 = comm.gather %a into %a root %c team = [2] : !host.buf<8xf32>, !host.buf<8xf32>
  %r8 = comm.scatter %a into %a root %c team = [2] : !host.buf<8xf32>, !host.buf<8xf32>
  comm.wait %r0, %r1
  comm.wait %r2
  comm.wait %r3, %r4, %r5, %r6, %r7, %r8
  return
}

// A wait on several requests only drops the removed one; an unused request is fine too.
// CHECK-LABEL: func.func @wait_keeps_others(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: !host.buf<8xf32>, %[[B:[a-z0-9]+]]: !host.buf<8xf32>
// CHECK-NEXT:  %[[R:.*]] = comm.allreduce sum %[[B]] into %[[B]] team = [0, 1]
// CHECK-NEXT:  comm.wait %[[R]]
// CHECK-NEXT:  return
func.func @wait_keeps_others(%a: !host.buf<8xf32>, %b: !host.buf<8xf32>) {
  %r0 = comm.allreduce sum %a into %a team = [0] : !host.buf<8xf32>, !host.buf<8xf32>
  %r1 = comm.allreduce sum %b into %b team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
  %r2 = comm.allreduce sum %a into %a team = [5] : !host.buf<8xf32>, !host.buf<8xf32>
  comm.wait %r0, %r1, %r0
  return
}

// Duplicated requests of one wait are waited on once.
// CHECK-LABEL: func.func @wait_dedup(
// CHECK:       %[[R0:.*]] = comm.send
// CHECK-NEXT:  %[[R1:.*]] = comm.recv
// CHECK-NEXT:  comm.wait %[[R0]], %[[R1]]{{$}}
// CHECK-NEXT:  comm.wait %[[R1]]{{$}}
func.func @wait_dedup(%a: !host.buf<8xf32>, %p: index) {
  %r0 = comm.send %a to %p : !host.buf<8xf32>
  %r1 = comm.recv %a from %p : !host.buf<8xf32>
  comm.wait %r0, %r1, %r0, %r1, %r0
  comm.wait %r1
  return
}

// Not rewritten: a team of two devices.
// CHECK-LABEL: func.func @team_of_two(
// CHECK-NEXT:  comm.allreduce
// CHECK-NEXT:  comm.wait
func.func @team_of_two(%a: !host.buf<8xf32>) {
  %r = comm.allreduce sum %a into %a team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
  comm.wait %r
  return
}

// Not rewritten: the request is used by something else than a wait.
// CHECK-LABEL: func.func @escaping_request(
// CHECK-NEXT:  %[[R:.*]] = comm.allreduce
// CHECK-NEXT:  return %[[R]]
func.func @escaping_request(%a: !host.buf<8xf32>) -> !comm.request {
  %r = comm.allreduce sum %a into %a team = [0] : !host.buf<8xf32>, !host.buf<8xf32>
  return %r : !comm.request
}

// Not rewritten: the current stream may change between the post and its wait.
// CHECK-LABEL: func.func @stream_switch(
// CHECK-NEXT:  comm.allreduce
// CHECK-NEXT:  "xhost.set_current_stream"
// CHECK-NEXT:  comm.wait
func.func @stream_switch(%a: !host.buf<8xf32>, %s: !host.stream) {
  %r = comm.allreduce sum %a into %a team = [0] : !host.buf<8xf32>, !host.buf<8xf32>
  "xhost.set_current_stream"(%s) : (!host.stream) -> ()
  comm.wait %r
  return
}

// Not rewritten: the wait is in another block.
// CHECK-LABEL: func.func @wait_elsewhere(
// CHECK-NEXT:  comm.allreduce
// CHECK-NEXT:  "test.region"
// CHECK-NEXT:    comm.wait
func.func @wait_elsewhere(%a: !host.buf<8xf32>) {
  %r = comm.allreduce sum %a into %a team = [0] : !host.buf<8xf32>, !host.buf<8xf32>
  "test.region"() ({
    comm.wait %r
  }) : () -> ()
  return
}

// Not rewritten: inside a group, the posts complete with the group.
// CHECK-LABEL: func.func @in_group(
// CHECK-NEXT:  %[[G:.*]] = comm.group {
// CHECK-NEXT:    comm.allreduce sum
// CHECK-NEXT:  }
// CHECK-NEXT:  comm.wait %[[G]]
func.func @in_group(%a: !host.buf<8xf32>) {
  %g = comm.group {
    %r = comm.allreduce sum %a into %a team = [0] : !host.buf<8xf32>, !host.buf<8xf32>
  }
  comm.wait %g
  return
}
