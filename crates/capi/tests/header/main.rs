//! `include/fuser.h` is what the generator makes of the C ABI's Rust source: this test fails
//! when the checked-in header is stale (`FUSER_BLESS=1` rewrites it), and when an exported
//! function is written in a form the generator would miss.

mod generate;

use std::path::{Path, PathBuf};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn header_path() -> PathBuf {
    crate_dir().join("../../include/fuser.h")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sources() -> Vec<String> {
    generate::SOURCES.iter().map(|f| read(&crate_dir().join("src").join(f))).collect()
}

#[test]
fn checked_in_header_is_generated_from_the_source() {
    let generated = generate::header(&read(&crate_dir().join("src/lib.rs")), &sources()).expect("the ABI source reads");
    let path = header_path();
    if std::env::var_os("FUSER_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/fuser.h");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == generated,
        "include/fuser.h is stale: run `FUSER_BLESS=1 cargo test -p fuser-capi --test header`"
    );
}

#[test]
fn only_the_generator_sources_export_functions() {
    let dir = crate_dir().join("src");
    for entry in std::fs::read_dir(&dir).expect("src/") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if generate::SOURCES.contains(&name.as_str()) {
            continue;
        }
        let exports = path.is_file() && read(&path).contains("#[unsafe(no_mangle)]");
        assert!(!exports, "{name} exports functions but is not in generate::SOURCES");
    }
}

#[test]
fn every_exported_function_is_in_the_header() {
    let sources = sources();
    let exported = sources.iter().map(|s| s.matches("#[unsafe(no_mangle)]").count()).sum::<usize>();
    let declared = sources.iter().map(|s| s.matches("\npub unsafe extern \"C\" fn fuser_").count()).sum::<usize>();
    assert_eq!(exported, declared, "an exported function is not written `pub unsafe extern \"C\" fn fuser_...`");
    let header = read(&header_path());
    for s in &sources {
        for decl in s.split("\npub unsafe extern \"C\" fn ").skip(1) {
            let name = &decl[..decl.find('(').expect("a parameter list")];
            assert!(header.contains(&format!(" {name}(")), "{name} is missing from include/fuser.h");
        }
    }
}
