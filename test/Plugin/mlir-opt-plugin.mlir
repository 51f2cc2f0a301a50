// REQUIRES: mlir-plugin, mlir-opt
// The fuser pass plugin in mlir-opt-19 (crates/mlir-plugin, FUSER_MLIR_PLUGIN): MLIR's
// canonicalize, fuser's tp-default and MLIR's cse in one MLIR pass manager give, on each of
// the three fusion examples, the text fuser-opt gives for the same pipeline. mlir-opt cannot
// read fuser's custom op syntax, so both read the examples in generic form.

// RUN: fuser-opt --mlir-print-op-generic %S/../../examples/row_parallel_linear.mlir > %t.row.in
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo --pass-pipeline='builtin.module(canonicalize, fuser-tp-default{streams=2}, cse)' %t.row.in > %t.row.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --mlir-print-debuginfo --pass-pipeline='builtin.module(canonicalize, tp-default{streams=2}, cse)' %t.row.in > %t.row.fuser-opt
// RUN: diff %t.row.mlir-opt %t.row.fuser-opt
// RUN: FileCheck %s --check-prefix=ROW < %t.row.mlir-opt
// ROW: "comm.allreduce"
// ROW: loc("{{.*}}row.in":

// RUN: fuser-opt --mlir-print-op-generic %S/../../examples/column_parallel_linear.mlir > %t.col.in
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, fuser-tp-default, cse)' %t.col.in > %t.col.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, tp-default, cse)' %t.col.in > %t.col.fuser-opt
// RUN: diff %t.col.mlir-opt %t.col.fuser-opt

// RUN: fuser-opt --mlir-print-op-generic %S/../../examples/stream_parallel_matmul.mlir > %t.mm.in
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, fuser-tp-default, cse)' %t.mm.in > %t.mm.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, tp-default, cse)' %t.mm.in > %t.mm.fuser-opt
// RUN: diff %t.mm.mlir-opt %t.mm.fuser-opt

// Function passes, anchored on func.func as in fuser (each function sees its mesh):
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fuser-fusion-propagate-sharding, fuser-fusion-decompose-resharding, fuser-fusion-to-host))' %t.row.in > %t.func.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' %t.row.in > %t.func.fuser-opt
// RUN: diff %t.func.mlir-opt %t.func.fuser-opt

// The plugin links no MLIR: its MLIR symbols are undefined, resolved from mlir-opt-19.
// RUN: nm -D %mlir_plugin | FileCheck %s --check-prefix=SYMS
// SYMS-DAG: U _ZN4mlir12registerPass
// SYMS-DAG: T mlirGetPassPluginInfo
// RUN: ldd %mlir_plugin | FileCheck %s --check-prefix=LDD
// LDD-NOT: libMLIR
// LDD: libc.so
// LDD-NOT: libMLIR

// The passes and pipelines are listed under the fuser- prefix:
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --help | FileCheck %s --check-prefix=HELP
// HELP: --fuser-comm-verify
// HELP: --fuser-tp-default

// Fuser's errors are MLIR diagnostics at the op's location (checked by mlir-opt against the
// expected-error below), and a failing fuser pass fails mlir-opt:
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --verify-diagnostics --pass-pipeline='builtin.module(func.func(fuser-fusion-to-host))' %s
// RUN: not mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(fuser-fusion-to-host))' %s 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: mlir-opt-plugin.mlir:{{[0-9]+}}:10: error: a tensor may have at most one Stream split

// Bad options are refused when the pipeline is parsed:
// RUN: not mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --pass-pipeline='builtin.module(fuser-tp-default{bogus=1})' %t.row.in 2>&1 | FileCheck %s --check-prefix=OPTS
// OPTS: bogus

"builtin.module"() ({
  "fusion.mesh"() <{devices = array<i64: 0>, shape = array<i64: 1>, sym_name = "one"}> : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>>, sym_name = "two_stream_splits"}> ({
  ^bb0(%arg0: tensor<4x8xf32, #fusion.shard<@one, [[], []]>>):
    // expected-error @+1 {{a tensor may have at most one Stream split, got Stream(2) on axis 0 and Stream(2) on axis 1}}
    %0 = "fusion.set"(%arg0) : (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>>
    "func.return"(%0) : (tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>>) -> ()
  }) : () -> ()
}) : () -> ()
