// REQUIRES: fuser-run, numpy
// The plumbing of examples/transformer/grad_vs_torch.py (issue 25 item 3, "against torch
// autograd") without torch: --smoke differentiates every op program of --ops with fuser-opt,
// runs its @f_vjp with fuser-run on raw input and cotangent files, and checks each gradient
// against central differences of fuser's own forward (`fuser-run --entry f`) along a random
// direction; --smoke --layer does the same for gen.py's layers (sharded on 2 cpu ranks, f64; bf16
// checks the raw bf16 files only, its difference quotient is coarse). The torch comparison itself
// runs on the device: docs/dev/autodiff.md, "How it is checked".
// RUN: python3 %S/../../../examples/transformer/grad_vs_torch.py --smoke --fuser-run %fuser_run --fuser-opt %fuser_opt | FileCheck %s
// CHECK-NOT: "pass": false
// CHECK: {"smoke": [[N:[0-9]+]], "passed": [[N]], "failed": []}
// RUN: python3 %S/../../../examples/transformer/grad_vs_torch.py --smoke --fuser-run %fuser_run --fuser-opt %fuser_opt --layer gpt3 --placement tpsp --devices 2 | FileCheck %s --check-prefix=LAYER
// RUN: python3 %S/../../../examples/transformer/grad_vs_torch.py --smoke --fuser-run %fuser_run --fuser-opt %fuser_opt --layer llama --placement tp --devices 2 --heads 8 --kv-heads 2 | FileCheck %s --check-prefix=LAYER
// RUN: python3 %S/../../../examples/transformer/grad_vs_torch.py --smoke --fuser-run %fuser_run --fuser-opt %fuser_opt --layer lmloss --placement tp --devices 2 --vocab 512 | FileCheck %s --check-prefix=LAYER
// RUN: python3 %S/../../../examples/transformer/grad_vs_torch.py --smoke --fuser-run %fuser_run --fuser-opt %fuser_opt --layer gpt3 --dtype bf16 | FileCheck %s --check-prefix=LAYER
// LAYER: "smoke": true
// LAYER-SAME: "pass": true
