// REQUIRES: fuser-run
// The gradients of whole transformer layers (issue 25 item 3): fusion-autodiff's joint
// function (@MODEL_vjp: the forward's output, then the gradient of the input and of every
// weight) of the GPT-3 and Llama layers of examples/transformer/gen.py, sharded with Megatron's
// tp and tp+sp placements, on 1, 2, 4 and 8 ranks of the cpu backend and through the overlap
// pipelines, against the unsharded f64 reference; and the embedding + LM head + vocab-parallel
// cross-entropy program (the loss' gradient through embedding_grad, one_hot and the row
// log-sum-exp's max/sum allreduces). Dropout is on (p = 0.1): the backward recomputes its masks.
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 1 --heads 8 --hidden 64 > %t.g1.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.g1.mlir | fuser-run - --entry gpt3_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 2 --heads 8 --hidden 64 > %t.g2.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.g2.mlir | fuser-run - --entry gpt3_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 4 --heads 8 --hidden 64 > %t.g4.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.g4.mlir | fuser-run - --entry gpt3_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 8 --heads 8 --hidden 64 > %t.g8.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.g8.mlir | fuser-run - --entry gpt3_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 1 --heads 16 --kv-heads 8 --hidden 128 > %t.l1.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.l1.mlir | fuser-run - --entry llama_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 2 --heads 16 --kv-heads 8 --hidden 128 > %t.l2.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.l2.mlir | fuser-run - --entry llama_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 4 --heads 16 --kv-heads 8 --hidden 128 > %t.l4.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.l4.mlir | fuser-run - --entry llama_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 8 --heads 16 --kv-heads 8 --hidden 128 > %t.l8.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.l8.mlir | fuser-run - --entry llama_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tp --devices 4 --heads 8 --hidden 64 > %t.gtp.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.gtp.mlir | fuser-run - --entry gpt3_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tp --devices 2 --heads 16 --kv-heads 8 --hidden 128 > %t.ltp.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.ltp.mlir | fuser-run - --entry llama_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 4 --heads 8 --hidden 64 > %t.go.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.go.mlir | fuser-run - --entry gpt3_vjp --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 2 --heads 16 --kv-heads 8 --hidden 128 > %t.lo.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.lo.mlir | fuser-run - --entry llama_vjp --check --pass-pipeline 'builtin.module(tp-overlap-p2p)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 2 --heads 8 --hidden 64 --dtype bf16 > %t.gb.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.gb.mlir | fuser-run - --entry gpt3_vjp --check --seed 3 | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py lmloss --placement tp --devices 2 --hidden 64 --vocab 512 > %t.ce.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=lmloss})' %t.ce.mlir | fuser-run - --entry lmloss_vjp --check | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py lmloss --placement tp --devices 4 --hidden 64 --vocab 512 > %t.ce4.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=lmloss})' %t.ce4.mlir | fuser-run - --entry lmloss_bwd --check | FileCheck %s
// The sequence in two stream chunks (--stream 2): the backward's GEMMs and collectives are
// chunked too (cotangents of chunked activations take their primal's layout; attention's
// gradient reads its sequence whole).
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 2 --heads 8 --hidden 64 --stream 2 > %t.st.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.st.mlir | fuser-run - --entry gpt3_vjp --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 4 --heads 8 --hidden 64 --stream 2 > %t.st4.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.st4.mlir | fuser-run - --entry gpt3_vjp --check --pass-pipeline 'builtin.module(tp-overlap-p2p)' | FileCheck %s
// The stream-chunked Llama layer (separate Q/K/V projections, rotary, GQA): the sum of the
// partial Q/K/V dgrads meets the sequence-split cotangent in [Stream(2), DIDx], which refines
// the dgrads' [Stream(2)] (test/Pass/autodiff/stream-chunks.mlir).
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 2 --heads 16 --kv-heads 8 --hidden 128 --stream 2 > %t.ls2.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.ls2.mlir > %t.ls2j.mlir
// RUN: fuser-run %t.ls2j.mlir --entry llama_vjp --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: fuser-run %t.ls2j.mlir --entry llama_vjp --check --pass-pipeline 'builtin.module(tp-overlap-p2p)' | FileCheck %s
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 4 --heads 16 --kv-heads 8 --hidden 128 --stream 2 > %t.ls4.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.ls4.mlir > %t.ls4j.mlir
// RUN: fuser-run %t.ls4j.mlir --entry llama_vjp --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: fuser-run %t.ls4j.mlir --entry llama_vjp --check --pass-pipeline 'builtin.module(tp-overlap-p2p)' | FileCheck %s
// CHECK: check: PASS
//
// The split: the forward saves the attention's log-sum-exp and the norms' statistics.
// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 2 --heads 8 --hidden 64 > %t.s.mlir && fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.s.mlir | FileCheck %s --check-prefix=SPLIT
// SPLIT: func.func @gpt3_fwd(
// SPLIT-SAME: fusion.saved = [{{.*}}result 1 of fusion.sdpa{{.*}}]
