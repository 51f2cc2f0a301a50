// tp-default{streams=N} = func.func(fusion-propagate-sharding, fusion-decompose-resharding,
// fusion-to-host, host-assign-streams{streams=N}, host-insert-dealloc), canonicalize, cse.
// (The host part alone is tp-host, tested end to end in tp-host.mlir.)

// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=2})' --dump-pass-pipeline -o %t.out > %t.dump 2>&1
// RUN: FileCheck %s --check-prefix=DUMP --input-file %t.dump
// RUN: fuser-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: fuser-opt --help | FileCheck %s --check-prefix=LIST
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=many})' 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(tp-default{chunks=2})' 2>&1 | FileCheck %s --check-prefix=NOSUCH
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(tp-default))' 2>&1 | FileCheck %s --check-prefix=NESTED

// The dump shows the expansion.
// DUMP: {{builtin.module\(func.func\(fusion-propagate-sharding,fusion-decompose-resharding,fusion-to-host\{report=false\},host-forward-copies\{elementwise-strided=false gemm-strided=true\},host-fuse-epilogue,host-fuse\{enabled=true\},host-assign-streams\{streams=2\},host-insert-dealloc\),canonicalize\{.*\},cse\)}}

// LIST:      Pass Pipelines:
// LIST-NEXT:   --tp-default -   Lower a sharded fusion program to a stream-parallel host program
// LIST-NEXT:     --fuse - {{.*}}(default: true)
// LIST-NEXT:     --report - {{.*}}(default: false)
// LIST-NEXT:     --streams=<long> - {{.*}}(default: 4)
// LIST-NEXT:   --tp-host -   Schedule a host program on streams and free its buffers
// LIST-NEXT:     --fuse - {{.*}}(default: true)
// LIST-NEXT:     --streams=<long> - {{.*}}(default: 4)

// ZERO:      error: tp-default: 'streams' must be at least 1, got 0
// ZERO-NEXT: failed to add `tp-default` with options `streams=0`
// NOTINT:    for the --streams option: 'many' value invalid for long argument!
// NOTINT:    failed to add `tp-default` with options `streams=many`
// NOSUCH:    <Pass-Options-Parser>: no such option chunks
// NESTED:    error: tp-default runs on a module: use it as 'builtin.module(tp-default)', not inside a 'func.func' pipeline
// NESTED:    failed to add `func.func` with options `` to inner pipeline

func.func @f() {
  return
}
