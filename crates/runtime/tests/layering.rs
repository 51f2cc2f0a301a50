//! The layering of fuser-runtime's modules (docs/dev/runtime.md, "Module map"), checked on the
//! source tree by `fuser-layering`: every file of `src/` has a layer in [`LAYERS`], a file imports
//! only files of its own layer or below, no import circle exists but the known ones in
//! [`KNOWN_CIRCLES`] (which may shrink, never grow), and every dependency in Cargo.toml is used.
//!
//! The two backends sit side by side above the executor's interface and know nothing of each
//! other: `cpu/` (the embedded backend and its communicator) and `cuda/`; the reference, the
//! multi-process transport and the driver sit above both.

use fuser_layering::Layers;

/// The layers, lowest first. A file may import files of its own layer and of layers above it
/// in this list, never below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "errors, element types and small services",
        &[
            "error.rs",
            "dtype.rs",
            "numerics.rs",
            "layout.rs",
            "rng.rs",
            "origin.rs",
            "gemm_lib.rs",
            "trace.rs",
            "watchdog.rs",
        ],
    ),
    ("buffers and host values", &["buffer.rs", "tensor.rs", "partial.rs"]),
    (
        "the named kernels' semantics, lowest first",
        &[
            "ops/dense.rs",
            "ops/params.rs",
            "ops/norm.rs",
            "ops/attention.rs",
            "ops/philox.rs",
            "ops/lookup.rs",
            "ops/slicing.rs",
            "ops/reduce.rs",
            "ops/softmax.rs",
            "ops/cross_entropy.rs",
            "ops/grad.rs",
            "ops/registry.rs",
            "ops/mod.rs",
        ],
    ),
    ("fused regions", &["fused/graph.rs", "fused/decode.rs", "fused/eval.rs", "fused/mod.rs"]),
    (
        "the executor and the backend interface",
        &["exec/backend.rs", "exec/prepare.rs", "exec/run.rs", "exec/capture.rs"],
    ),
    (
        "the store and the process wire",
        &[
            "store/wire.rs",
            "store/token.rs",
            "store/port.rs",
            "store/gate.rs",
            "store/server.rs",
            "store/mod.rs",
            "procs/fault.rs",
            "procs/frame.rs",
            "procs/outbox.rs",
            "procs/fingerprint.rs",
        ],
    ),
    (
        "the cpu backend, lowest first",
        &[
            "cpu/race.rs",
            "cpu/streams.rs",
            "cpu/kernels.rs",
            "cpu/named.rs",
            "cpu/comm/remote.rs",
            "cpu/comm/p2p.rs",
            "cpu/comm/collective.rs",
            "cpu/comm/mod.rs",
            "exec/access.rs",
            "cpu/backend.rs",
        ],
    ),
    (
        "the cuda backend, lowest first",
        &[
            "cuda/api.rs",
            "cuda/kernels.rs",
            "cuda/cublaslt.rs",
            "cuda/tracer.rs",
            "cuda/memory.rs",
            "cuda/nccl.rs",
            "cuda/gpu.rs",
            "cuda/ops/module.rs",
            "cuda/ops/lookup.rs",
            "cuda/ops/softmax.rs",
            "cuda/ops/norm.rs",
            "cuda/ops/attention.rs",
            "cuda/ops/grad.rs",
            "cuda/ops/sdpa_grad_plan.rs",
            "cuda/ops/sdpa_grad_gemm.rs",
            "cuda/ops/mod.rs",
            "cuda/fused/codegen.rs",
            "cuda/fused/mod.rs",
            "cuda/graph.rs",
            "cuda/contention.rs",
            "cuda/ipc.rs",
            "cuda/ipc_procs.rs",
            "cuda/copy_engine.rs",
            "cuda/backend.rs",
            "cuda/external.rs",
        ],
    ),
    ("the unsharded reference", &["reference.rs", "precision.rs"]),
    ("one process per rank (cpu)", &["procs/msg.rs", "procs/hub.rs", "procs/link.rs"]),
    ("the driver", &["driver.rs", "process.rs", "procs/run.rs", "procs/rank.rs"]),
    (
        "facades and tools",
        &["lib.rs", "exec/mod.rs", "cpu/mod.rs", "cuda/mod.rs", "procs/mod.rs", "bin/fuser-contention.rs"],
    ),
];

/// Import circles that remain. The communicator's collectives and point-to-point halves are
/// `impl Communicator` blocks in their own files, so they name the type in `mod.rs`, whose
/// fields name their state (the rendezvous table, the matcher, the remote link).
const KNOWN_CIRCLES: &[&[&str]] =
    &[&["cpu/comm/collective.rs", "cpu/comm/mod.rs", "cpu/comm/p2p.rs", "cpu/comm/remote.rs"]];

#[test]
fn layering_holds() {
    let spec = Layers { name: "fuser-runtime", layers: LAYERS, known_circles: KNOWN_CIRCLES };
    if let Err(e) = fuser_layering::check(env!("CARGO_MANIFEST_DIR"), &spec) {
        panic!("{e}");
    }
}
