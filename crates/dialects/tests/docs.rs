//! The checked-in dialect reference pages (`docs/dialects/<dialect>.md`) must equal the text
//! generated from the op definitions. Run with `UPDATE_DOCS=1` to rewrite them.

use fuser_dialects::doc::dialect_doc;
use std::path::PathBuf;

fn docs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/dialects")
}

#[test]
fn checked_in_docs_match_definitions() {
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for d in fuser_dialects::dialects() {
        let path = docs_dir().join(format!("{}.md", d.namespace));
        let want = dialect_doc(d);
        if update {
            std::fs::create_dir_all(docs_dir()).expect("create docs/dialects");
            std::fs::write(&path, &want).expect("write doc page");
            continue;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if have != want {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale docs (regenerate with UPDATE_DOCS=1 cargo test -p fuser-dialects --test docs): {stale:?}"
    );
}
