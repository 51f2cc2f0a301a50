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
use fuser_ir::{Context, Diagnostic, Ir, OpId};

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
        ds.iter().map(|d| TextDiagnostic::from_diagnostic(ctx, d)).collect()
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
}
