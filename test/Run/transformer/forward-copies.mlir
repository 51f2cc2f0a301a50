// REQUIRES: fuser-run
// host-forward-copies on the GPT-3 and Llama layers of examples/transformer/gen.py (tiny sizes,
// tp and tpsp, 1, 2 and 4 ranks): the lowered programs, with the pass before host-assign-streams
// and host-insert-dealloc (which must see the forwarded reads through views), run on the cpu
// backend with the race checker and match the unsharded reference. The number of host.copy ops
// before and after the pass is pinned for tp and tpsp on 2 ranks, so a regression shows.
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tp --devices 1 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.gpt3.tp1.mlir && fuser-run %t.gpt3.tp1.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tp --devices 2 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.gpt3.tp2.mlir && fuser-run %t.gpt3.tp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tp --devices 4 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.gpt3.tp4.mlir && fuser-run %t.gpt3.tp4.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 1 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.gpt3.tpsp1.mlir && fuser-run %t.gpt3.tpsp1.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 2 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.gpt3.tpsp2.mlir && fuser-run %t.gpt3.tpsp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 4 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.gpt3.tpsp4.mlir && fuser-run %t.gpt3.tpsp4.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tp --devices 1 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.llama.tp1.mlir && fuser-run %t.llama.tp1.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tp --devices 2 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.llama.tp2.mlir && fuser-run %t.llama.tp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tp --devices 4 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.llama.tp4.mlir && fuser-run %t.llama.tp4.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 1 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.llama.tpsp1.mlir && fuser-run %t.llama.tpsp1.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 2 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.llama.tpsp2.mlir && fuser-run %t.llama.tpsp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 4 --seq 16 --hidden 32 --heads 4 --ffn 64 > %t.llama.tpsp4.mlir && fuser-run %t.llama.tpsp4.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 2 --seq 16 --hidden 32 --heads 4 --ffn 64 --stream 2 > %t.gpt3.s.mlir && fuser-run %t.gpt3.s.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-set-stream-chunks{chunks=2}, fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams{streams=2}, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 2 --seq 16 --hidden 32 --heads 4 --ffn 64 --stream 2 > %t.llama.s.mlir && fuser-run %t.llama.s.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-set-stream-chunks{chunks=2}, fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams{streams=2}, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// CHECK: check: PASS

// RUN: fuser-opt %t.gpt3.tp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=GPT3TP-BEFORE
// RUN: fuser-opt %t.gpt3.tp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=GPT3TP-AFTER
// GPT3TP-BEFORE-COUNT-18: host.copy
// GPT3TP-BEFORE-NOT: host.copy
// GPT3TP-AFTER-COUNT-6: host.copy
// GPT3TP-AFTER-NOT: host.copy

// RUN: fuser-opt %t.gpt3.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=GPT3TPSP-BEFORE
// RUN: fuser-opt %t.gpt3.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=GPT3TPSP-AFTER
// GPT3TPSP-BEFORE-COUNT-20: host.copy
// GPT3TPSP-BEFORE-NOT: host.copy
// GPT3TPSP-AFTER-COUNT-6: host.copy
// GPT3TPSP-AFTER-NOT: host.copy

// RUN: fuser-opt %t.llama.tp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=LLAMATP-BEFORE
// RUN: fuser-opt %t.llama.tp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=LLAMATP-AFTER
// LLAMATP-BEFORE-COUNT-28: host.copy
// LLAMATP-BEFORE-NOT: host.copy
// LLAMATP-AFTER-COUNT-14: host.copy
// LLAMATP-AFTER-NOT: host.copy

// RUN: fuser-opt %t.llama.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=LLAMATPSP-BEFORE
// RUN: fuser-opt %t.llama.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=LLAMATPSP-AFTER
// LLAMATPSP-BEFORE-COUNT-28: host.copy
// LLAMATPSP-BEFORE-NOT: host.copy
// LLAMATPSP-AFTER-COUNT-14: host.copy
// LLAMATPSP-AFTER-NOT: host.copy

// With elementwise-strided=true, broadcasts and strided slices read only by host.elementwise
// are not materialized either (the bias broadcasts, the rotary embedding's halves, cos and sin).
// RUN: fuser-run %t.gpt3.tp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: fuser-run %t.gpt3.tpsp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: fuser-run %t.llama.tp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: fuser-run %t.llama.tpsp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: fuser-opt %t.gpt3.tp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=GPT3TP-STRIDED
// GPT3TP-STRIDED-COUNT-4: host.copy
// GPT3TP-STRIDED-NOT: host.copy
// RUN: fuser-opt %t.gpt3.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=GPT3TPSP-STRIDED
// GPT3TPSP-STRIDED-COUNT-4: host.copy
// GPT3TPSP-STRIDED-NOT: host.copy
// RUN: fuser-opt %t.llama.tp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=LLAMATP-STRIDED
// LLAMATP-STRIDED-COUNT-8: host.copy
// LLAMATP-STRIDED-NOT: host.copy
// RUN: fuser-opt %t.llama.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies{elementwise-strided=true}, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=LLAMATPSP-STRIDED
// LLAMATPSP-STRIDED-COUNT-8: host.copy
// LLAMATPSP-STRIDED-NOT: host.copy

// Before host-fuse (which then takes the broadcast copies into its regions).
// RUN: fuser-run %t.gpt3.tpsp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-fuse, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: fuser-opt %t.gpt3.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-fuse, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=GPT3-FUSE
// GPT3-FUSE-COUNT-4: host.copy
// GPT3-FUSE-NOT: host.copy
// RUN: fuser-run %t.llama.tpsp2.mlir --check --check-races --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-fuse, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: fuser-opt %t.llama.tpsp2.mlir --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-forward-copies, host-fuse, host-assign-streams, host-insert-dealloc), canonicalize, cse)' | FileCheck %s --check-prefix=LLAMA-FUSE
// LLAMA-FUSE-COUNT-4: host.copy
// LLAMA-FUSE-NOT: host.copy
