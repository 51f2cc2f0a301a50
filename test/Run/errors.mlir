// Errors of fuser-run are diagnostics with exit status 1.

// REQUIRES: fuser-run
// RUN: not fuser-run %S/../../examples/row_parallel_linear.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=MESH --implicit-check-not='<unknown>'
// MESH: fuser-run: error: mesh @tp has devices [0, 1, 2, 3], but --ranks 2 runs ranks 0..=1 (rank r runs device r)

// RUN: not fuser-run %s --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=NOREF --implicit-check-not='<unknown>'
// NOREF: fuser-run: error: --check needs a fusion-level program: the input or --reference FILE

// Errors about the run rather than a place in the input name the tool, not `<unknown>:0:`.
// RUN: not fuser-run %S/no-such-file.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE --implicit-check-not='<unknown>'
// NOFILE: fuser-run: error: cannot open input file '{{.*}}no-such-file.mlir'
// RUN: not fuser-run %S/../../examples/row_parallel_linear.mlir --pass-pipeline=fuse-all 2>&1 | FileCheck %s --check-prefix=PIPELINE --implicit-check-not='<unknown>'
// PIPELINE: fuser-run: error: invalid --pass-pipeline: 'fuse-all' does not refer to a registered pass or pass pipeline
// PIPELINE-NEXT: fuse-all
// PIPELINE-NEXT: ^

// A failing lowering's note shows the op it could not lower, not the half-lowered function.
// RUN: not fuser-run %S/inputs/unlowerable.mlir 2>&1 | FileCheck %s --check-prefix=LOWER --implicit-check-not='host.'
// LOWER: unlowerable.mlir:6:8: error: resharding in a stream loop of 2 chunks needs the Stream split of axis 0 outermost, got [DIDx]
// LOWER: unlowerable.mlir:6:8: note: see current operation: %{{[0-9]+}} = "fusion.set"(%{{[0-9]+}})

// RUN: not fuser-run %s --ranks 2 2>&1 | FileCheck %s --check-prefix=TEAM
// TEAM: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: rank {{[01]}}: allreduce #0 of team [0, 1]: rank 0 posts allreduce with 4 elements, rank 1 posts allreduce with 8 elements

// Rank 0 sends 4 elements, rank 1 sends 8: the allreduce does not match.
func.func @mismatch(%a: !host.buf<8xf32>) -> !host.buf<8xf32> {
  %0 = host.alloc() : !host.buf<8xf32>
  %r = host.rank : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %is0 = arith.cmpi eq, %r, %c0 : index
  host.if %is0 {
    %v = host.slice %a[0] [4] [1] : !host.buf<8xf32> -> !host.view<4xf32, strides = [1]>
    %q = comm.allreduce sum %v into %v team = [0, 1] : !host.view<4xf32, strides = [1]>, !host.view<4xf32, strides = [1]>
    comm.wait %q
  } else {
    %q = comm.allreduce sum %a into %0 team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
    comm.wait %q
  }
  return %0 : !host.buf<8xf32>
}
