//! The layering of fuser-dialects' modules (ARCHITECTURE.md, "crates/dialects"), checked on the
//! source tree by `fuser-layering`: every file of `src/` has a layer in [`LAYERS`], a file imports
//! only files of its own layer or below, no import circle exists but the known ones in
//! [`KNOWN_CIRCLES`] (which may shrink, never grow), and every dependency in Cargo.toml is used.
//!
//! The shape of every dialect folder (MLIR's one-dialect-per-folder layout): what the ops share
//! (constraints, syntax, verifiers, hook sets, accessors) lies below the ops, in files of its
//! own; the ops lie below the dialect definition in `mod.rs`, which only re-exports and lists
//! them; `lib.rs` builds the registry of every dialect.

use fuser_layering::Layers;

/// The layers, lowest first. A file may import files of its own layer and of layers above it
/// in this list, never below.
const LAYERS: &[(&str, &[&str])] = &[
    ("shared support and types", &["support.rs", "reduction.rs", "doc.rs", "host/types.rs", "comm/types.rs"]),
    (
        "what the ops of a dialect share",
        &[
            "symbols.rs",
            "arith/constraints.rs",
            "arith/fold_util.rs",
            "arith/fastmath.rs",
            "arith/overflow.rs",
            "arith/binary_syntax.rs",
            "arith/cast_common.rs",
            "arith/elementwise.rs",
            "arith/float_const.rs",
            "arith/float_bits.rs",
            "cf/branches.rs",
            "comm/attrs.rs",
            "comm/common.rs",
            "fusion/syntax.rs",
            "fusion/clauses.rs",
            "fusion/kernels.rs",
            "host/common.rs",
        ],
    ),
    (
        "ops",
        &[
            "builtin.rs",
            "func.rs",
            "func_indirect.rs",
            "arith/constant.rs",
            "arith/binary.rs",
            "arith/binary_float.rs",
            "arith/bitcast.rs",
            "arith/bitwise.rs",
            "arith/cmpf.rs",
            "arith/cmpf_int.rs",
            "arith/cmpi.rs",
            "arith/div_round.rs",
            "arith/extended.rs",
            "arith/float_casts.rs",
            "arith/index_cast.rs",
            "arith/int_casts.rs",
            "arith/int_float_casts.rs",
            "arith/int_patterns.rs",
            "arith/minmax_int.rs",
            "arith/negf.rs",
            "arith/select.rs",
            "arith/select_patterns.rs",
            "arith/shifts.rs",
            "cf/ops.rs",
            "cf/patterns.rs",
            "comm/collectives.rs",
            "comm/group.rs",
            "comm/p2p.rs",
            "comm/wait.rs",
            "fusion/mesh.rs",
            "fusion/sharding.rs",
            "fusion/verify.rs",
            "fusion/elementwise.rs",
            "fusion/math.rs",
            "fusion/layout.rs",
            "fusion/matmul.rs",
            "fusion/reduce.rs",
            "fusion/slicing.rs",
            "fusion/lookup.rs",
            "fusion/softmax.rs",
            "fusion/loss.rs",
            "fusion/norm.rs",
            "fusion/attention.rs",
            "fusion/grad.rs",
            "host/alloc.rs",
            "host/compute.rs",
            "host/reduce.rs",
            "host/kernel.rs",
            "host/fused.rs",
            "host/control.rs",
            "host/layout_views.rs",
            "host/misc.rs",
            "host/streams.rs",
            "host/views.rs",
        ],
    ),
    ("dialect definitions", &["arith/mod.rs", "cf/mod.rs", "comm/mod.rs", "fusion/mod.rs", "host/mod.rs"]),
    ("the registry", &["lib.rs"]),
];

/// Import circles that remain. Ops and their canonicalization patterns name each other (a
/// pattern builds the op it rewrites to; the op lists its patterns), as in MLIR, and so do the
/// families of arith that fold into each other; the others are listed to shrink.
const KNOWN_CIRCLES: &[&[&str]] = &[
    // Integer ops, their patterns and the casts and comparisons they rewrite into.
    &[
        "arith/binary.rs",
        "arith/bitwise.rs",
        "arith/cmpi.rs",
        "arith/extended.rs",
        "arith/int_casts.rs",
        "arith/int_patterns.rs",
        "arith/shifts.rs",
    ],
    // Float ops and the comparisons of converted integers.
    &["arith/binary_float.rs", "arith/cmpf.rs", "arith/cmpf_int.rs", "arith/negf.rs"],
    &["arith/select.rs", "arith/select_patterns.rs"],
    &["cf/ops.rs", "cf/patterns.rs"],
    // func.func lists func.constant/call_indirect, which build func.call states.
    &["func.rs", "func_indirect.rs"],
    // The mesh verifies the shardings of its functions' signatures, which name meshes.
    &["fusion/mesh.rs", "fusion/sharding.rs", "fusion/verify.rs"],
];

#[test]
fn layering_holds() {
    let spec = Layers { name: "fuser-dialects", layers: LAYERS, known_circles: KNOWN_CIRCLES };
    if let Err(e) = fuser_layering::check(env!("CARGO_MANIFEST_DIR"), &spec) {
        panic!("{e}");
    }
}
