//! The melior example of docs/embedding-mlir.md: the document shows
//! examples/mixed_pipeline.rs verbatim, and the example lowers row_parallel_linear.

#[path = "../examples/mixed_pipeline.rs"]
#[allow(dead_code)]
mod example;

mod common;

#[test]
fn the_document_shows_the_example_verbatim() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("../../docs/embedding-mlir.md")).unwrap();
    let code = std::fs::read_to_string(root.join("examples/mixed_pipeline.rs")).unwrap();
    assert!(doc.contains(&code), "docs/embedding-mlir.md must contain examples/mixed_pipeline.rs verbatim");
}

#[test]
fn the_example_lowers_a_fusion_program() {
    let (text, ops) = example::lower(&common::generic_example("row_parallel_linear.mlir")).unwrap();
    assert!(text.contains("\"comm.allreduce\""), "{text}");
    assert!(ops > 10, "{ops}");
}
