//! The layering of fuser's modules, checked on the source tree by `fuser-layering`: every
//! file of `src/` has a layer in [`LAYERS`], a file imports only files of its own layer or below,
//! no import circle exists but the known ones in [`KNOWN_CIRCLES`] (which may shrink, never
//! grow), and every dependency in Cargo.toml is used.

use fuser_layering::Layers;

/// The layers, lowest first. A file may import files of its own layer and of layers above it
/// in this list, never below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "types, diagnostics and extension points",
        &["builder/mod.rs", "builder/types.rs", "diagnostics.rs", "extend.rs", "lib.rs"],
    ),
    ("panic containment", &["panics.rs"]),
    ("compiler and modules", &["compiler.rs", "module.rs"]),
    ("derived programs", &["autodiff.rs"]),
    ("the program builder", &["builder/function.rs", "builder/program.rs"]),
];

/// Import circles that remain (files that import each other).
const KNOWN_CIRCLES: &[&[&str]] = &[&["compiler.rs", "module.rs"], &["builder/function.rs", "builder/program.rs"]];

#[test]
fn layering_holds() {
    let spec = Layers { name: "fuser", layers: LAYERS, known_circles: KNOWN_CIRCLES };
    if let Err(e) = fuser_layering::check(env!("CARGO_MANIFEST_DIR"), &spec) {
        panic!("{e}");
    }
}
