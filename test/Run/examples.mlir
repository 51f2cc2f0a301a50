// fuser-run lowers each seed program of examples/ with tp-default, runs it on N cpu ranks and
// compares the gathered outputs with the unsharded f64 reference.

// REQUIRES: fuser-run
// RUN: fuser-run %S/../../examples/stream_parallel_matmul.mlir --ranks 1 --check | FileCheck %s --check-prefixes=CHECK,MM
// RUN: fuser-run %S/../../examples/row_parallel_linear.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,R4
// RUN: fuser-run %S/../../examples/column_parallel_linear.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,R4
// RUN: fuser-run %S/../../examples/row_parallel_linear.mlir --ranks 4 --check --pass-pipeline 'tp-default{streams=2}' --seed 3 --warmup 1 --iters 2 | FileCheck %s
// RUN: fuser-run %S/../../examples/sequence_to_head_parallel.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,R4

// Row-parallel linear on 1 and 2 devices (the mesh edited as in test/Pipelines).
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' %S/../../examples/row_parallel_linear.mlir | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %S/../../examples/row_parallel_linear.mlir | fuser-run - --ranks 2 --check | FileCheck %s
// Column-parallel linear on 1 and 2 devices: one stream chunk per device.
// RUN: sed -e 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' -e 's/Stream(4)/Stream(1)/g' %S/../../examples/column_parallel_linear.mlir | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: sed -e 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' -e 's/Stream(4)/Stream(2)/g' %S/../../examples/column_parallel_linear.mlir | fuser-run - --ranks 2 --check | FileCheck %s

// CHECK:      fuser-run: @{{[a-z_]+}} on {{[0-9]}} rank(s)
// CHECK-NEXT: rank
// MM-NEXT:    0 {{.*}} 3 0
// R4-COUNT-4: {{^ +[0-3] }}
// CHECK:      check: PASS (max rel err {{.*}})

// The overlap pipelines (collective per chunk; p2p ring) run and pass too.
// RUN: fuser-run %S/../../examples/row_parallel_linear.mlir --ranks 4 --check --pass-pipeline tp-overlap-collective | FileCheck %s
// RUN: fuser-run %S/../../examples/column_parallel_linear.mlir --ranks 4 --check --pass-pipeline tp-overlap-p2p | FileCheck %s
