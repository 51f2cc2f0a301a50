//! The layering of fuser-lowerfuzz's modules, checked on the source tree by `fuser-layering`: every
//! file of `src/` has a layer in [`LAYERS`], a file imports only files of its own layer or below,
//! no import circle exists but the known ones in [`KNOWN_CIRCLES`] (which may shrink, never
//! grow), and every dependency in Cargo.toml is used.

use fuser_layering::Layers;

/// The layers, lowest first. A file may import files of its own layer and of layers above it
/// in this list, never below.
const LAYERS: &[(&str, &[&str])] = &[
    ("programs, randomness and verdicts", &["lib.rs", "main.rs", "program.rs", "rng.rs", "verdict.rs"]),
    ("pipelines, running passes and the watchdog", &["passes.rs", "pipeline.rs", "watchdog.rs"]),
    ("the generator", &["generate.rs", "generate/chains.rs", "generate/grad.rs", "generate/transformer.rs"]),
    (
        "oracle (and its autodiff joints), shrinking, coverage and regressions",
        &["coverage.rs", "joint.rs", "oracle.rs", "regression.rs", "shrink.rs"],
    ),
    ("campaigns", &["campaign.rs"]),
];

/// Import circles that remain (files that import each other).
const KNOWN_CIRCLES: &[&[&str]] = &[];

#[test]
fn layering_holds() {
    let spec = Layers { name: "fuser-lowerfuzz", layers: LAYERS, known_circles: KNOWN_CIRCLES };
    if let Err(e) = fuser_layering::check(env!("CARGO_MANIFEST_DIR"), &spec) {
        panic!("{e}");
    }
}
