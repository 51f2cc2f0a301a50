//! The layering of fuser-passes's modules, checked on the source tree by `fuser-layering`: every
//! file of `src/` has a layer in [`LAYERS`], a file imports only files of its own layer or below,
//! no import circle exists but the known ones in [`KNOWN_CIRCLES`] (which may shrink, never
//! grow), and every dependency in Cargo.toml is used.

use fuser_layering::Layers;

/// The layers, lowest first. A file may import files of its own layer and of layers above it
/// in this list, never below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "shared helpers and leaf passes",
        &[
            "canonicalize.rs",
            "comm/mod.rs",
            "comm_verify/report.rs",
            "comm_verify/trace.rs",
            "cse.rs",
            "dce.rs",
            "doc.rs",
            "fusion/autodiff/builder.rs",
            "fusion/autodiff/grads.rs",
            "fusion/axes.rs",
            "fusion/mod.rs",
            "fusion/resharding.rs",
            "fusion/to_host/info.rs",
            "fusion/to_host/value_map.rs",
            "host/build.rs",
            "host/mod.rs",
            "lib.rs",
            "pipelines.rs",
            "symbol_dce.rs",
        ],
    ),
    (
        "passes over one dialect",
        &[
            "comm/collective_backend.rs",
            "comm_verify/interp.rs",
            "comm_verify/matching.rs",
            "fusion/autodiff/attention.rs",
            "fusion/autodiff/elementwise.rs",
            "fusion/autodiff/gemm.rs",
            "fusion/autodiff/lookup.rs",
            "fusion/autodiff/loss.rs",
            "fusion/autodiff/math.rs",
            "fusion/autodiff/norm.rs",
            "fusion/autodiff/reduce.rs",
            "fusion/autodiff/shape.rs",
            "fusion/autodiff/softmax.rs",
            "fusion/propagate.rs",
            "host/assign_streams.rs",
            "host/forward_copies.rs",
            "host/fuse_epilogue.rs",
            "host/hoist_alloc.rs",
            "host/insert_dealloc.rs",
            "host/licm.rs",
            "host/fuse.rs",
        ],
    ),
    (
        "lowering steps",
        &[
            "comm/p2p_ring.rs",
            "comm_verify/sim.rs",
            "fusion/autodiff/joint.rs",
            "fusion/autodiff/rules.rs",
            "fusion/autodiff/split.rs",
            "fusion/decompose.rs",
            "fusion/stream_chunks.rs",
            "fusion/to_host/comm.rs",
            "fusion/to_host/emit.rs",
            "fusion/to_host/kernel.rs",
            "fusion/to_host/slicing.rs",
            "fusion/to_host/plan.rs",
            "fusion/to_host/report.rs",
            "fusion/vocab_parallel.rs",
        ],
    ),
    ("pass families", &["comm_verify/mod.rs", "fusion/autodiff/mod.rs", "fusion/to_host/mod.rs"]),
    ("registration", &["registration.rs"]),
];

/// Import circles that remain (files that import each other).
const KNOWN_CIRCLES: &[&[&str]] = &[&["fusion/to_host/comm.rs", "fusion/to_host/emit.rs", "fusion/to_host/plan.rs"]];

#[test]
fn layering_holds() {
    let spec = Layers { name: "fuser-passes", layers: LAYERS, known_circles: KNOWN_CIRCLES };
    if let Err(e) = fuser_layering::check(env!("CARGO_MANIFEST_DIR"), &spec) {
        panic!("{e}");
    }
}
