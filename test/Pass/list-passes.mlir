// --list-passes (and the pass section of --help) lists every registered pass with its options
// (fuser-opt's own list, so only fuser-opt is checked).

// RUN: fuser-opt --list-passes | FileCheck %s
// RUN: fuser-opt --help | FileCheck %s

// CHECK:      Passes:
// CHECK-NEXT:   --canonicalize -   Fold ops and apply their canonicalization patterns to a fixpoint
// CHECK-NEXT:     --max-iterations=<long> - {{.*}}(default: 10)
// CHECK-NEXT:     --max-num-rewrites=<long> - {{.*}}(default: -1)
// CHECK-NEXT:     --region-simplify=<value> - {{.*}}(default: normal)
// CHECK-NEXT:       =disabled
// CHECK-NEXT:       =normal
// CHECK-NEXT:       =aggressive
// CHECK-NEXT:     --test-convergence - {{.*}}(default: false)
// CHECK-NEXT:     --top-down - {{.*}}(default: true)
// CHECK-NEXT:   --comm-collective-backend -   Choose NCCL or the copy-engine (CUDA IPC) implementation of every communication (on 'func.func')
// CHECK-NEXT:     --backend=<value> - {{.*}}(default: nccl)
// CHECK-NEXT:       =nccl
// CHECK-NEXT:       =cuda_ipc
// CHECK-NEXT:   --comm-p2p-ring -   Turn per-iteration broadcasts of an AllGather pipeline into a point-to-point ring (on 'func.func')
// CHECK-NEXT:     --backend=<value> - {{.*}}(default: nccl)
// CHECK-NEXT:       =nccl
// CHECK-NEXT:       =cuda_ipc
// CHECK-NEXT:     --protocol=<value> - {{.*}}(default: get)
// CHECK-NEXT:       =get
// CHECK-NEXT:       =put
// CHECK-NEXT:     --stage-buffers - {{.*}}(default: true)
// CHECK-NEXT:   --comm-verify -   Prove that a host program's communication matches and cannot deadlock (on 'func.func')
// CHECK-NEXT:     --team-size=<long> - {{.*}}(default: 0)
// CHECK-NEXT:   --cse -   Merge identical side-effect-free ops
// CHECK-NEXT:   --dce -   Erase dead operations and unreachable blocks
// CHECK-NEXT:   --fusion-autodiff -   Add the reverse-mode derivative (@NAME_vjp, @NAME_fwd, @NAME_bwd) of fusion functions (on 'builtin.module')
// CHECK-NEXT:     --func=<string> - {{.*}}
// CHECK-NEXT:     --wrt=<long> - {{.*}}
// CHECK-NEXT:   --fusion-decompose-resharding -   Make every sharding change a standalone fusion.set or fusion.sum (on 'func.func')
// CHECK-NEXT:   --fusion-propagate-sharding -   Give every tensor a sharding by propagating device and stream splits through the ops (on 'func.func')
// CHECK-NEXT:   --fusion-set-stream-chunks -   Set the chunk count of every Stream split of a fusion function (on 'func.func')
// CHECK-NEXT:     --chunks=<long> - {{.*}}(default: 0)
// CHECK-NEXT:   --fusion-to-host -   Lower a function of fusion tensor ops to a rank-generic host program (on 'func.func')
// CHECK-NEXT:     --report - {{.*}}(default: false)
// CHECK-NEXT:   --host-assign-streams -   Run the iterations of top-level host loops on worker streams (on 'func.func')
// CHECK-NEXT:     --streams=<long> - {{.*}}(default: 4)
// CHECK-NEXT:   --host-forward-copies -   Remove copies that materialize views: read through the composed views instead (on 'func.func')
// CHECK-NEXT:     --elementwise-strided - {{.*}}(default: false)
// CHECK-NEXT:     --gemm-strided - {{.*}}(default: true)
// CHECK-NEXT:   --host-fuse -   Group chains of elementwise ops, reductions and norms into fused regions (on 'func.func')
// CHECK-NEXT:     --enabled - {{.*}}(default: true)
// CHECK-NEXT:   --host-fuse-epilogue -   Fuse a linear's gelu_tanh or residual add into its GEMM epilogue (on 'func.func')
// CHECK-NEXT:   --host-hoist-alloc -   Move loop-invariant allocations out of single-stream loops (on 'func.func')
// CHECK-NEXT:     --persistent - {{.*}}(default: false)
// CHECK-NEXT:   --host-insert-dealloc -   Free each allocated buffer after its last use {{.*}} (on 'func.func')
// CHECK-NEXT:   --licm -   Hoist loop-invariant pure ops (index math) out of host loops
// CHECK-NEXT:   --symbol-dce -   Erase private symbols nothing refers to
// CHECK-NEXT: Pass Pipelines:
// CHECK-NEXT:   --tp-default -   Lower a sharded fusion program to a stream-parallel host program
// CHECK-NEXT:     --fuse - {{.*}}(default: true)
// CHECK-NEXT:     --report - {{.*}}(default: false)
// CHECK-NEXT:     --streams=<long> - {{.*}}(default: 4)
// CHECK-NEXT:   --tp-host -   Schedule a host program on streams and free its buffers
// CHECK-NEXT:     --fuse - {{.*}}(default: true)
// CHECK-NEXT:     --streams=<long> - {{.*}}(default: 4)
