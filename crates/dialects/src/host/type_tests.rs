//! Parsing, printing, builders and diagnostics of the host types.

use super::types::*;
use fuser_ir::context::Context;
use fuser_ir::parser::parse_type_str;
use fuser_ir::printer::print_type;
use fuser_ir::types::DYNAMIC;

fn ctx() -> Context {
    Context::new(crate::registry())
}

fn roundtrip(c: &Context, s: &str) -> String {
    let t = parse_type_str(c, s).unwrap_or_else(|e| panic!("{s}: {e}"));
    print_type(c, t)
}

#[test]
fn parses_and_prints_canonically() {
    let c = ctx();
    assert_eq!(roundtrip(&c, "!host.buf<4x?xf32>"), "!host.buf<4x?xf32>");
    assert_eq!(roundtrip(&c, "!host.buf<4x8xbf16, device>"), "!host.buf<4x8xbf16>");
    assert_eq!(roundtrip(&c, "!host.buf<4xi32, pinned>"), "!host.buf<4xi32, pinned>");
    assert_eq!(roundtrip(&c, "!host.buf<f32>"), "!host.buf<f32>");
    assert_eq!(roundtrip(&c, "!host.view<2x8xf32, strides = [16, 1]>"), "!host.view<2x8xf32, strides = [16, 1]>");
    assert_eq!(roundtrip(&c, "!host.view<?x8xf16,strides=[?,1],ipc>"), "!host.view<?x8xf16, strides = [?, 1], ipc>");
    assert_eq!(roundtrip(&c, "!host.stream"), "!host.stream");
}

#[test]
fn decodes_and_builds() {
    let c = ctx();
    let f32t = parse_type_str(&c, "f32").unwrap();
    let t = parse_type_str(&c, "!host.view<2x?xf32, strides = [?, 1], symmetric>").unwrap();
    let b = BufferType::of(&c, t).unwrap();
    assert_eq!(b.shape, vec![2, DYNAMIC]);
    assert_eq!(b.elem, f32t);
    assert_eq!(b.memory, MemoryKind::Symmetric);
    assert_eq!(b.strides, Some(vec![DYNAMIC, 1]));
    assert_eq!(b.to_type(&c), t);
    let buf = buf_type(&c, &[3, 4], f32t, MemoryKind::Device);
    assert_eq!(print_type(&c, buf), "!host.buf<3x4xf32>");
    assert!(is_buffer_like(&c, buf) && is_buffer_like(&c, t) && !is_buffer_like(&c, f32t));
    assert!(is_stream(&c, stream_type(&c)));
    assert_eq!(BufferType::of(&c, buf).unwrap().static_num_elements(), Some(12));
    assert_eq!(BufferType::contiguous_strides(&[2, 3, 4]), vec![12, 4, 1]);
    assert_eq!(BufferType::contiguous_strides(&[2, DYNAMIC, 4]), vec![DYNAMIC, 4, 1]);
}

#[test]
fn rejects_bad_parameters() {
    let c = ctx();
    for (src, msg) in [
        ("!host.buf<4xf32, gpu>", "unknown memory kind 'gpu'"),
        ("!host.buf<4xtensor<2xf32>>", "element type must be an integer, index or float type"),
        ("!host.view<2x8xf32, strides = [1]>", "expected 2 strides (one per dimension), got 1"),
        ("!host.view<2x8xf32>", "expected ','"),
        ("!host.stream<1>", ""),
    ] {
        let err = parse_type_str(&c, src).expect_err(src).to_string();
        assert!(err.contains(msg), "{src}: {err}");
    }
}
