// REQUIRES: fuser-run
// The programs of the kernel-fusion benchmark (benches/gpu/fusion_programs.py, timed on the GPU
// by benches/gpu/fusion.sh) parse, lower and compute what the unsharded f64 reference computes,
// small, in bf16 and f32; and their ideal byte counts (inputs read once + outputs written once)
// are what the benchmark's GB/s divide. (`bash benches/gpu/fusion.sh --dry-run` runs the whole
// benchmark script small on the cpu backend.)
// RUN: python3 %S/../../benches/gpu/fusion_programs.py add --rows 8 --cols 32 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py gelu_bias --rows 8 --cols 32 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py bias_dropout_residual --rows 8 --cols 32 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py layer_norm --rows 8 --cols 32 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py rms_norm --rows 8 --cols 32 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py softmax --rows 8 --cols 32 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py gpt3_nongemm --rows 4 --cols 16 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py linear --rows 8 --cols 24 --k 16 | fuser-run - --check | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py layer_norm --rows 6 --cols 40 --dtype f32 | fuser-run - --check --seed 3 | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py bias_dropout_residual --rows 6 --cols 40 --dtype f32 | fuser-run - --check --seed 4 | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py gpt3_nongemm --rows 3 --cols 8 --ffn 24 --dtype f32 | fuser-run - --check | FileCheck %s
// The same programs with their chains fused (host-fuse): one region per chain, checked the same.
// RUN: python3 %S/../../benches/gpu/fusion_programs.py gpt3_nongemm --rows 4 --cols 16 | fuser-run - --check --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse, host-assign-streams{streams=1}, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py bias_dropout_residual --rows 8 --cols 32 | fuser-run - --check --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse, host-assign-streams{streams=1}, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// RUN: python3 %S/../../benches/gpu/fusion_programs.py gelu_bias --rows 8 --cols 32 --dtype f32 | fuser-run - --check --pass-pipeline 'builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-fuse, host-assign-streams{streams=1}, host-insert-dealloc), canonicalize, cse)' | FileCheck %s
// CHECK: check: PASS

// add [2, 4] bf16: 3 x 8 x 2 bytes; gelu_bias: x, bias, result; bias_dropout_residual: x, bias,
// residual, seed, offset (i64), result; gpt3_nongemm [2, 4] (ffn 16): x, 4 norm vectors, qkv_mm,
// b_qkv, proj_mm, b_o, fc1_mm, b_1, fc2_mm, b_2, three i64 scalars; results h, qkv, x1, h2, g, y.
// RUN: python3 %S/../../benches/gpu/fusion_programs.py add --rows 2 --cols 4 --bytes | FileCheck %s --check-prefix=ADD
// ADD: 48
// RUN: python3 %S/../../benches/gpu/fusion_programs.py gelu_bias --rows 2 --cols 4 --bytes | FileCheck %s --check-prefix=GELU
// GELU: 40
// RUN: python3 %S/../../benches/gpu/fusion_programs.py bias_dropout_residual --rows 2 --cols 4 --bytes | FileCheck %s --check-prefix=BDR
// BDR: 72
// RUN: python3 %S/../../benches/gpu/fusion_programs.py gpt3_nongemm --rows 2 --cols 4 --bytes | FileCheck %s --check-prefix=GPT3
// GPT3: 464

// The benchmark's reading of fuser-run's CSV and trace, and its report, on made-up numbers.
// RUN: python3 %S/../../benches/gpu/fusion_bench.py --self-test | FileCheck %s --check-prefix=SELF
// SELF-NOT: want
// SELF: self-test: PASS
