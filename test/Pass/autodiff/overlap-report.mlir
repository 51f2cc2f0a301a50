// RUN: python3 %S/../../../examples/transformer/gen.py gpt3 --placement tpsp --devices 2 --heads 8 --hidden 64 --stream 2 > %t.g.mlir
// RUN: fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.g.mlir | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{report=true})' -o /dev/null 2>&1 | grep remark | FileCheck %s --check-prefix=GPT
// RUN: python3 %S/../../../examples/transformer/gen.py llama --placement tpsp --devices 2 --heads 16 --kv-heads 8 --hidden 128 --stream 2 > %t.l.mlir
// RUN: fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=llama})' %t.l.mlir | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{report=true})' -o /dev/null 2>&1 | grep remark | FileCheck %s --check-prefix=LLAMA
// Without report=true, no remark.
// RUN: fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=gpt3})' %t.g.mlir | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// The overlap report (fusion-to-host{report=true}, the overlap pipelines' report=true) of the
// stream-chunked tp+sp GPT-3 and Llama layers' joints (issue 25: "the lowering says which
// backward GEMMs got an overlap pipeline"): one remark per GEMM, in program order, saying
// AG+GEMM, GEMM+RS or none and why (grep keeps the remark lines, without their source lines).
// The report is what the lowering does today, not a goal: a change that gives a GEMM an overlap
// (or takes one away) updates these lines.

// QUIET-NOT: remark

// @gpt3 (the forward alone): the column-parallel QKV and fc1 read an input gathered whole
// (their result has no stream split); the row-parallel projection and fc2 are GEMM+RS.
// GPT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// GPT-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// GPT-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// GPT-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// @gpt3_vjp: its forward, as @gpt3's, then the backward's GEMMs, each named by fusion.grad_of
// (forward op 25: fc2, 23: fc1, 19: the projection, 1: QKV). The row-parallel dgrads (fc2, the
// projection) read their sequence-split cotangent gathered chunk by chunk: AG+GEMM; the
// column-parallel dgrads (fc1, QKV) are GEMM+RS; the wgrads contract the sequence and are not
// chunked.
// GPT-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// GPT-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// GPT-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// GPT-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// GPT-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 25)): AG+GEMM (allgather of operand #0 per chunk), in a loop of 2 stream chunks
// GPT-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 25)): none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; no collective next to it)
// GPT-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 23)): none (not stream-chunked: its result is {{\[\[DIDx\], \[\]\]}}; operand #1 comes from an allgather run whole)
// GPT-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 23)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// GPT-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 19)): AG+GEMM (allgather of operand #0 per chunk), in a loop of 2 stream chunks
// GPT-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 19)): none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; no collective next to it)
// GPT-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 1)): none (not stream-chunked: its result is {{\[\[DIDx\], \[\]\]}}; operand #1 comes from an allgather run whole)
// GPT-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 1)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks

// @llama: Q, K, V, gate and up read an input gathered whole; the projection and down are GEMM+RS.
// LLAMA: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// @llama_vjp: its forward, as @llama's, then the backward's GEMMs.
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; operand #0 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// @llama_vjp's backward: down (forward op 42), up (39), gate (38), the projection (35), V (27),
// K (14), Q (1). The row-parallel dgrads (down, the projection) are AG+GEMM; every column-parallel
// dgrad (up, gate, V, K, Q) is GEMM+RS: each contribution to the sequence-split cotangent is
// reduce-scattered in its GEMM's loop before the sum.
// LLAMA-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 42)): AG+GEMM (allgather of operand #0 per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 42)): none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; no collective next to it)
// LLAMA-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 39)): none (not stream-chunked: its result is {{\[\[DIDx\], \[\]\]}}; operand #1 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 39)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 38)): none (not stream-chunked: its result is {{\[\[DIDx\], \[\]\]}}; operand #1 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 38)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 35)): AG+GEMM (allgather of operand #0 per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 35)): none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; no collective next to it)
// LLAMA-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 27)): none (not stream-chunked: its result is {{\[\[DIDx\], \[\]\]}}; operand #1 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 27)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 14)): none (not stream-chunked: its result is {{\[\[DIDx\], \[\]\]}}; operand #1 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 14)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// LLAMA-NEXT: remark: overlap: fusion.matmul (wgrad of fusion.linear (forward op 1)): none (not stream-chunked: its result is {{\[\[DIDx\], \[\]\]}}; operand #1 comes from an allgather run whole)
// LLAMA-NEXT: remark: overlap: fusion.matmul (dgrad of fusion.linear (forward op 1)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
