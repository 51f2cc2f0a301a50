//! The layering of fuser-opt-tool's modules, checked on the source tree by `fuser-layering`: every
//! file of `src/` has a layer in [`LAYERS`], a file imports only files of its own layer or below,
//! no import circle exists but the known ones in [`KNOWN_CIRCLES`] (which may shrink, never
//! grow), and every dependency in Cargo.toml is used.

use fuser_layering::Layers;

/// The layers, lowest first. A file may import files of its own layer and of layers above it
/// in this list, never below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "command lines, reports and services",
        &[
            "cli.rs",
            "io_error.rs",
            "run/cli.rs",
            "run/entry.rs",
            "run/exits.rs",
            "run/signals.rs",
            "run/ranks.rs",
            "run/report.rs",
            "run/source_name.rs",
            "services.rs",
            "tool_main.rs",
        ],
    ),
    ("drivers, the check and the launcher", &["driver.rs", "run/check.rs", "run/launch.rs"]),
    ("tool entry points", &["main.rs", "run/tool.rs"]),
    ("fuser-run main", &["run/main.rs"]),
];

/// Import circles that remain (files that import each other).
const KNOWN_CIRCLES: &[&[&str]] = &[];

#[test]
fn layering_holds() {
    let spec = Layers { name: "fuser-opt-tool", layers: LAYERS, known_circles: KNOWN_CIRCLES };
    if let Err(e) = fuser_layering::check(env!("CARGO_MANIFEST_DIR"), &spec) {
        panic!("{e}");
    }
}
