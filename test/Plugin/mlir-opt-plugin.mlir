// REQUIRES: mlir-plugin, mlir-opt
// The fuser pass plugin in mlir-opt-19 (crates/mlir-plugin): MLIR's canonicalize, fuser's
// tp-default and MLIR's cse in one MLIR pass manager give, on each of the three fusion
// examples, the text fuser-opt gives for the same pipeline (both in generic form, which
// fuser prints byte-identically to mlir-opt).

// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, fuser-tp-default{streams=2}, cse)' %S/../../examples/row_parallel_linear.mlir > %t.row.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, tp-default{streams=2}, cse)' %S/../../examples/row_parallel_linear.mlir > %t.row.fuser-opt
// RUN: diff %t.row.mlir-opt %t.row.fuser-opt

// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, fuser-tp-default, cse)' %S/../../examples/column_parallel_linear.mlir > %t.col.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(canonicalize, tp-default, cse)' %S/../../examples/column_parallel_linear.mlir > %t.col.fuser-opt
// RUN: diff %t.col.mlir-opt %t.col.fuser-opt

// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo --pass-pipeline='builtin.module(canonicalize, fuser-tp-default, cse)' %S/../../examples/stream_parallel_matmul.mlir > %t.mm.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --mlir-print-debuginfo --pass-pipeline='builtin.module(canonicalize, tp-default, cse)' %S/../../examples/stream_parallel_matmul.mlir > %t.mm.fuser-opt
// RUN: diff %t.mm.mlir-opt %t.mm.fuser-opt

// Single function passes, anchored on func.func as in fuser (each function sees its mesh):
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fuser-fusion-propagate-sharding, fuser-fusion-decompose-resharding, fuser-fusion-to-host))' %S/../../examples/row_parallel_linear.mlir > %t.func.mlir-opt
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' %S/../../examples/row_parallel_linear.mlir > %t.func.fuser-opt
// RUN: diff %t.func.mlir-opt %t.func.fuser-opt

// The passes are listed under the fuser- prefix:
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --help | FileCheck %s --check-prefix=HELP
// HELP: --fuser-comm-verify
// HELP: --fuser-tp-default

// Fuser's errors are MLIR diagnostics at the op's location (mlir-opt checks them):
// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fuser-fusion-to-host))' %S/../Transforms/fusion-to-host-invalid.mlir

// A failing fuser pass fails mlir-opt:
// RUN: not mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(fuser-fusion-to-host))' %S/../Transforms/fusion-to-host-invalid.mlir --split-input-file 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: fusion-to-host-invalid.mlir:6:8: error: a tensor may have at most one Stream split

// Bad options are refused when the pipeline is parsed:
// RUN: not mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --pass-pipeline='builtin.module(fuser-tp-default{bogus=1})' %S/../../examples/row_parallel_linear.mlir 2>&1 | FileCheck %s --check-prefix=OPTS
// OPTS: bogus
