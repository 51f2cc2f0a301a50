//! [`HandedOver`]: the op an MLIR pass runs on, as text, with its symbol context: at each
//! level up, a shell of the parent (the parent printed with empty regions) and the
//! siblings worth copying (regionless, operand-free ops such as `fusion.mesh`), each as
//! self-contained generic text. [`HandedOver::build`] assembles them into one fuser IR, the
//! op placed among its siblings in a block of each shell, like the symbol context fuser's
//! own parallel pass manager gives a detached function.
//!
//! Every piece is an op printed on its own (MLIR prints a nested op with inline locations,
//! no aliases), so no piece refers to another's aliases or values.

use crate::diagnostic::TextDiagnostic;
use fuser_ir::diag::SourceFile;
use fuser_ir::{AttrKind, Context, Diagnostic, Ir, OpId};

/// One level of ancestors, innermost first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// The parent op printed with its regions empty.
    pub shell: String,
    /// The region of the parent that holds the op.
    pub region: usize,
    /// Copied siblings, in block order, without the op itself.
    pub siblings: Vec<String>,
    /// Where the op goes among `siblings` (0..=len).
    pub position: usize,
}

/// The op and its context, as MLIR printed them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandedOver {
    pub op: String,
    pub levels: Vec<Level>,
}

impl HandedOver {
    /// Parses every piece into `ir` and nests them; returns (root, the op).
    pub fn build(&self, ctx: &Context, ir: &mut Ir, source_name: &str) -> Result<(OpId, OpId), Vec<TextDiagnostic>> {
        let target = parse_one(ctx, ir, &self.op, source_name)?;
        let mut current = target;
        for level in &self.levels {
            current = wrap_in_level(ctx, ir, level, current, source_name)?;
        }
        Ok((current, target))
    }
}

/// Puts `inner` with the level's siblings into a new block of the level's shell.
fn wrap_in_level(
    ctx: &Context,
    ir: &mut Ir,
    level: &Level,
    inner: OpId,
    name: &str,
) -> Result<OpId, Vec<TextDiagnostic>> {
    let shell = parse_one(ctx, ir, &level.shell, name)?;
    let region = *ir.regions(shell).get(level.region).ok_or_else(|| {
        vec![TextDiagnostic::error_at_unknown(format!("the shell of a parent op has no region #{}", level.region))]
    })?;
    let block = ir.create_block(&[]);
    ir.append_block(region, block);
    for (i, text) in level.siblings.iter().enumerate() {
        if i == level.position {
            ir.append_op(block, inner);
        }
        let sibling = parse_one(ctx, ir, text, name)?;
        ir.append_op(block, sibling);
    }
    if level.position >= level.siblings.len() {
        ir.append_op(block, inner);
    }
    Ok(shell)
}

/// Parses one printed op into `ir`, detached. A parser wraps a top-level op other than a
/// `builtin.module` in an implicit module: that wrapper is dropped.
pub fn parse_one(ctx: &Context, ir: &mut Ir, text: &str, source_name: &str) -> Result<OpId, Vec<TextDiagnostic>> {
    let to_text = |ds: Vec<Diagnostic>| -> Vec<TextDiagnostic> {
        ds.iter().map(|d| at_user_location(ctx, d, text, source_name)).collect()
    };
    let top =
        fuser_ir::parser::parse_source_all(ctx, ir, &SourceFile::new(source_name, text.into())).map_err(to_text)?;
    if printed_op_name(text) == Some("builtin.module") {
        return Ok(top);
    }
    let body = ir.regions(top).first().and_then(|&r| ir.region_blocks(r).first().copied());
    let op = body
        .and_then(|b| ir.first_op(b))
        .ok_or_else(|| vec![TextDiagnostic::error_at_unknown("the handed-over text holds no op")])?;
    ir.detach_op(op);
    ir.erase_op(top);
    Ok(op)
}

/// `d` as text; a location in the handed-over text itself (`source_name`, a parse error: MLIR
/// accepted what fuser refuses, such as `Stream(0)` in a sharding MLIR sees as an opaque
/// attribute) is replaced by the location of the op (or block argument) the text position
/// belongs to, which MLIR printed with it: the user's file, line and column of that op.
fn at_user_location(ctx: &Context, d: &Diagnostic, text: &str, source_name: &str) -> TextDiagnostic {
    let mut t = TextDiagnostic::from_diagnostic(ctx, d);
    let mapped = |loc: fuser_ir::Attr| -> Option<String> {
        let AttrKind::FileLineColLoc { file, line, col } = ctx.attr_kind(loc) else { return None };
        if ctx.ident_str(*file) != source_name {
            return None;
        }
        let offset = offset_of(text, *line, *col)?;
        enclosing_location(text, offset).map(str::to_string)
    };
    if let Some(loc) = mapped(d.loc) {
        t.loc = loc;
    }
    // The notes, flattened in the order `TextDiagnostic::from_diagnostic` flattens them.
    let mut note_locs = Vec::new();
    let mut stack: Vec<&Diagnostic> = d.notes.iter().rev().collect();
    while let Some(n) = stack.pop() {
        note_locs.push(n.loc);
        stack.extend(n.notes.iter().rev());
    }
    for (note, loc) in t.notes.iter_mut().zip(note_locs) {
        if let Some(mapped) = mapped(loc) {
            note.loc = mapped;
        }
    }
    t
}

/// The byte offset of 1-based (`line`, byte `col`) in `text`, clamped to the line.
fn offset_of(text: &str, line: u32, col: u32) -> Option<usize> {
    let start = if line <= 1 { 0 } else { text.match_indices('\n').nth(line as usize - 2).map(|(i, _)| i + 1)? };
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    Some((start + col.saturating_sub(1) as usize).min(end))
}

/// The `loc(...)` text of the innermost op or block argument whose printed text holds byte
/// `offset` of `text` (MLIR's generic form with inline debug info: every op and block argument
/// ends with its `loc(...)`). From `offset` on, the first `loc(` not nested deeper than any
/// bracket closed on the way is the one that ends the enclosing item: the locations of ops in
/// the enclosing op's regions sit inside brackets (`({ ... })`) opened after `offset`.
pub fn enclosing_location(text: &str, offset: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    // Strings do not span lines in printed IR: find whether `offset` is inside one.
    let line_start = bytes[..offset.min(bytes.len())].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut i = line_start;
    while i < offset {
        if bytes[i] == b'"' {
            let end = string_end(bytes, i);
            if end > offset {
                i = end;
                break;
            }
            i = end;
        } else {
            i += 1;
        }
    }
    let (mut depth, mut lowest) = (0i64, 0i64);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = string_end(bytes, i);
                continue;
            }
            b'l' if bytes[i..].starts_with(b"loc(") && (i == 0 || !is_ident_byte(bytes[i - 1])) => {
                let end = balanced_end(bytes, i + 3)?;
                if depth <= lowest {
                    return text.get(i..end);
                }
                i = end;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                lowest = lowest.min(depth);
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.' || b == b'-'
}

/// One past the closing quote of the string starting at `bytes[start] == '"'`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// One past the `)` closing the `(` at `open`, skipping strings.
fn balanced_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = string_end(bytes, i);
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The name of the first op of generic text (after alias definitions), e.g. `func.func`.
fn printed_op_name(text: &str) -> Option<&str> {
    let line =
        text.lines().map(str::trim_start).find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))?;
    let rest = line.strip_prefix('"')?;
    rest.split('"').next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_op_is_placed_among_its_siblings_in_its_parents_shell() {
        let ctx = Context::new(fuser_dialects::registry());
        ctx.set_allow_unregistered(true);
        let handed = HandedOver {
            op: "\"a.f\"() ({\n}) : () -> () loc(\"x.mlir\":3:1)\n".into(),
            levels: vec![Level {
                shell: "\"builtin.module\"() ({\n}) {sym = 1 : i32} : () -> () loc(\"x.mlir\":1:1)\n".into(),
                region: 0,
                siblings: vec!["\"a.mesh\"() : () -> ()\n".into(), "\"a.after\"() : () -> ()\n".into()],
                position: 1,
            }],
        };
        let mut ir = Ir::new();
        let (root, op) = handed.build(&ctx, &mut ir, "x").unwrap();
        assert_eq!(ctx.op_name_str(ir.op_name(root)), "builtin.module");
        assert_eq!(ir.parent_op(op), Some(root));
        let names: Vec<&str> =
            ir.block_ops(ir.region_blocks(ir.regions(root)[0])[0]).map(|o| ctx.op_name_str(ir.op_name(o))).collect();
        assert_eq!(names, ["a.mesh", "a.f", "a.after"]);
    }

    #[test]
    fn bad_pieces_are_errors() {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        assert!(parse_one(&ctx, &mut ir, "\"a.b\"(", "x").is_err());
        let bad_region = HandedOver {
            op: "\"builtin.module\"() ({\n}) : () -> ()\n".into(),
            levels: vec![Level {
                shell: "\"builtin.module\"() ({\n}) : () -> ()\n".into(),
                region: 3,
                ..Level::default()
            }],
        };
        assert!(bad_region.build(&ctx, &mut ir, "x").is_err());
    }

    const BAD: &str = concat!(
        "\"func.func\"() <{function_type = (tensor<4xf32>) -> (), sym_name = \"f\"}> ({\n",
        "^bb0(%arg0: tensor<4xf32, #fusion.shard<@m, [[Stream(0)]]>> loc(\"u.mlir\":2:9)):\n",
        "  %0 = \"fusion.set\"(%arg0) {note = \"loc(x)\"} : (tensor<4xf32>) -> tensor<4xf32, #fusion.shard<@m, [[Stream(0)]]>> loc(\"u.mlir\":3:10)\n",
        "  \"func.return\"() : () -> () loc(\"u.mlir\":4:5)\n",
        "}) : () -> () loc(\"u.mlir\":1:1)\n",
    );

    #[test]
    fn a_text_position_maps_to_the_location_of_its_op_or_argument() {
        let at = |needle: &str, nth: usize| BAD.match_indices(needle).nth(nth).unwrap().0;
        // In the function's header, before its body: the function's location (the
        // locations inside its region are skipped).
        assert_eq!(enclosing_location(BAD, at("tensor<4xf32>", 0)), Some("loc(\"u.mlir\":1:1)"));
        // In a block argument's type: the argument's location.
        assert_eq!(enclosing_location(BAD, at("Stream(0)", 0)), Some("loc(\"u.mlir\":2:9)"));
        // In an op's result type, and inside a string that looks like a location.
        assert_eq!(enclosing_location(BAD, at("Stream(0)", 1)), Some("loc(\"u.mlir\":3:10)"));
        assert_eq!(enclosing_location(BAD, at("loc(x)", 0) + 2), Some("loc(\"u.mlir\":3:10)"));
        // In the function's trailing type, after its body.
        assert_eq!(enclosing_location(BAD, BAD.rfind("() -> ()").unwrap()), Some("loc(\"u.mlir\":1:1)"));
    }

    #[test]
    fn a_parse_error_in_handed_over_text_is_reported_at_the_users_op() {
        let ctx = Context::new(fuser_dialects::registry());
        ctx.set_allow_unregistered(true);
        let mut ir = Ir::new();
        let ds = parse_one(&ctx, &mut ir, BAD, "<mlir>").unwrap_err();
        assert_eq!(ds[0].loc, "loc(\"u.mlir\":2:9)", "{ds:?}");
        assert!(ds[0].message.contains("positive chunk count"), "{ds:?}");
        // Text without locations keeps the position in the text.
        let bare = "\"a.b\"() : () -> (tensor<4xf32, #fusion.shard<@m, [[Stream(0)]]>>)\n";
        let ds = parse_one(&ctx, &mut ir, bare, "<mlir>").unwrap_err();
        assert!(ds[0].loc.starts_with("loc(\"<mlir>\":1:"), "{ds:?}");
    }
}
