//! `docs/passes.md` must equal the text generated from the pass metadata. Run with
//! `UPDATE_DOCS=1` to rewrite it.

use std::path::PathBuf;

#[test]
fn checked_in_pass_docs_match_metadata() {
    let mut registry = fuser_ir::pass::PassRegistry::new();
    fuser_passes::register_all(&mut registry).expect("unique pass names");
    let want = fuser_passes::doc::passes_doc(&registry);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/passes.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/passes.md");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/passes.md is stale: regenerate with UPDATE_DOCS=1 cargo test -p fuser-passes --test docs"
    );
}
