//! `symbol-dce`: erases private symbols that nothing live references, as mlir-opt-19's
//! SymbolDCE does.
//!
//! Algorithm (the root must hold a symbol table):
//! 1. Liveness, with a worklist seeded from the root table: every op of the table that is not a
//!    symbol is a root of liveness; a symbol is live from the start unless it is discardable:
//!    not public, and private or in a *hidden* table (MLIR's `canDiscardOnUseEmpty` and
//!    SymbolDCE). The root table is hidden unless it has a parent op and is a public or nested
//!    symbol; a nested table is hidden when the table being processed is, or it is not a symbol,
//!    or it is private. So `func.func nested @f` with no use is erased from a top-level module,
//!    kept inside a public `module @m` that is the root. Popping an op: if it is a symbol table,
//!    its own ops are seeded the same way; otherwise its nested ops that have regions are pushed. Then the
//!    symbol references of the op are collected: every `SymbolRefAttr` in its attributes and
//!    properties (inside arrays and dictionaries too) and in those of the ops nested in it, not
//!    descending into nested symbol tables. Each reference is resolved from the op's parent (a
//!    symbol table): `@a::@b` marks both `@a` and `@b` live. Newly live symbols are pushed.
//!    Unresolvable references are ignored.
//! 2. Every symbol table nested in the root (and the root) loses its non-live symbols (the
//!    ops of its body, terminator excluded); an erased symbol takes its body with it.
//!
//! An unregistered op of an unregistered dialect with exactly one region might be a symbol
//! table we cannot see into: meeting one while collecting references fails the pass with
//! MLIR's error, since liveness cannot be computed safely. Public symbols are never erased.

use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, RegionId, WalkOrder};
use fuser_ir::registry::Traits;
use fuser_ir::verifier::{op_attr, symbol_name, with_current_op_note};
use rustc_hash::FxHashSet;

/// Options of `symbol-dce` (none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolDceOptions {}

/// Runs symbol DCE on the symbol table `root`; returns whether a symbol was erased.
pub fn run_symbol_dce(ctx: &Context, ir: &mut Ir, root: OpId, _opts: &SymbolDceOptions) -> Result<bool, Diagnostic> {
    if !is_symbol_table(ctx, ir, root) {
        let name = ctx.op_name_str(ir.op_name(root));
        let d = Diagnostic::error(
            ir.loc(root),
            format!("'{name}' op  was scheduled to run under SymbolDCE, but does not define a symbol table"),
        );
        return Err(with_current_op_note(ctx, ir, root, d));
    }
    let live = compute_liveness(ctx, ir, root)?;
    Ok(erase_dead_symbols(ctx, ir, root, &live))
}

fn has_trait(ctx: &Context, ir: &Ir, op: OpId, t: Traits) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| d.has(t))
}
fn is_symbol_table(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    has_trait(ctx, ir, op, Traits::SYMBOL_TABLE) && ir.regions(op).len() == 1
}
/// A symbol: an op with the Symbol trait, or a named symbol table (`module @m` is an optional
/// symbol, as in MLIR: a symbol only when it has a name).
fn is_symbol(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    has_trait(ctx, ir, op, Traits::SYMBOL)
        || (has_trait(ctx, ir, op, Traits::SYMBOL_TABLE) && op_attr(ctx, ir, op, "sym_name").is_some())
}
fn visibility<'a>(ctx: &'a Context, ir: &Ir, op: OpId) -> Option<&'a str> {
    op_attr(ctx, ir, op, "sym_visibility").and_then(|a| ctx.attr_str(a))
}
fn is_private(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    visibility(ctx, ir, op) == Some("private")
}
/// MLIR's default `canDiscardOnUseEmpty`: any symbol that is not public.
fn is_public(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    matches!(visibility(ctx, ir, op), None | Some("public"))
}
/// An unregistered op of an unknown dialect with one region: possibly a symbol table.
fn is_potentially_unknown_symbol_table(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let name = ir.op_name(op);
    ir.regions(op).len() == 1 && ctx.op_def(name).is_none() && ctx.dialect(ctx.op_dialect(name)).is_none()
}

/// The ops directly in the body of a symbol table.
fn table_ops(ir: &Ir, table: OpId) -> Vec<OpId> {
    ir.regions(table).first().map(|&r| ops_of_region(ir, r)).unwrap_or_default()
}
fn ops_of_region(ir: &Ir, r: RegionId) -> Vec<OpId> {
    ir.region_blocks(r).iter().flat_map(|&b| ir.block_ops(b)).collect()
}

/// The live symbols of the table `root` and of the tables nested in live ops.
fn compute_liveness(ctx: &Context, ir: &Ir, root: OpId) -> Result<FxHashSet<OpId>, Diagnostic> {
    let mut live = FxHashSet::default();
    // Each entry carries whether the table whose liveness pushed it is hidden.
    let mut worklist: Vec<(OpId, bool)> = Vec::new();
    let root_hidden = ir.parent_op(root).is_none() || !is_symbol(ctx, ir, root) || is_private(ctx, ir, root);
    seed_table(ctx, ir, root, root_hidden, &mut live, &mut worklist);
    while let Some((op, hidden)) = worklist.pop() {
        if is_symbol_table(ctx, ir, op) {
            let inner_hidden = hidden || !is_symbol(ctx, ir, op) || is_private(ctx, ir, op);
            seed_table(ctx, ir, op, inner_hidden, &mut live, &mut worklist);
        } else {
            for &r in ir.regions(op) {
                let nested = ops_of_region(ir, r).into_iter().filter(|&o| !ir.regions(o).is_empty());
                worklist.extend(nested.map(|o| (o, hidden)));
            }
        }
        let Some(uses) = symbol_uses(ctx, ir, op) else {
            let d = Diagnostic::error(
                ir.loc(op),
                "operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses",
            );
            return Err(with_current_op_note(ctx, ir, op, d));
        };
        let Some(scope) = ir.parent_op(op) else { continue };
        for r in uses {
            for sym in resolve(ctx, ir, scope, r) {
                if live.insert(sym) {
                    worklist.push((sym, hidden));
                }
            }
        }
    }
    Ok(live)
}

/// Non-symbols are liveness roots; so are the symbols that cannot be discarded: public ones,
/// and nested ones of a table that is not hidden.
fn seed_table(
    ctx: &Context,
    ir: &Ir,
    table: OpId,
    hidden: bool,
    live: &mut FxHashSet<OpId>,
    worklist: &mut Vec<(OpId, bool)>,
) {
    for o in table_ops(ir, table) {
        let discardable = is_symbol(ctx, ir, o) && (hidden || is_private(ctx, ir, o)) && !is_public(ctx, ir, o);
        let is_root = !is_symbol(ctx, ir, o) || (!discardable && live.insert(o));
        if is_root {
            worklist.push((o, hidden));
        }
    }
}

/// The symbol references held by `op` and the ops nested in it (not inside nested symbol
/// tables); `None` when a potentially unknown symbol table is met.
fn symbol_uses(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<Attr>> {
    if is_potentially_unknown_symbol_table(ctx, ir, op) {
        return None;
    }
    let mut refs = Vec::new();
    collect_refs(ctx, ir, op, &mut refs);
    if is_symbol_table(ctx, ir, op) {
        return Some(refs);
    }
    let mut regions: Vec<RegionId> = ir.regions(op).to_vec();
    while let Some(r) = regions.pop() {
        for o in ops_of_region(ir, r) {
            if is_potentially_unknown_symbol_table(ctx, ir, o) {
                return None;
            }
            collect_refs(ctx, ir, o, &mut refs);
            if !has_trait(ctx, ir, o, Traits::SYMBOL_TABLE) {
                regions.extend(ir.regions(o).iter().copied());
            }
        }
    }
    Some(refs)
}

/// Symbol references inside an op's attributes and properties.
fn collect_refs(ctx: &Context, ir: &Ir, op: OpId, out: &mut Vec<Attr>) {
    let mut stack: Vec<Attr> = vec![ir.attrs(op)];
    stack.extend(ir.props(op));
    while let Some(a) = stack.pop() {
        match ctx.attr_kind(a) {
            AttrKind::SymbolRef { .. } => out.push(a),
            AttrKind::Array(items) => stack.extend(items.iter().rev().copied()),
            AttrKind::Dictionary(entries) => stack.extend(entries.iter().rev().map(|e| e.1)),
            _ => {}
        }
    }
}

/// The ops named by a symbol reference, looked up from the symbol table `scope`: one per
/// component of `@a::@b::@c`. Empty when the reference does not resolve fully.
fn resolve(ctx: &Context, ir: &Ir, scope: OpId, r: Attr) -> Vec<OpId> {
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(r) else { return Vec::new() };
    let mut found = Vec::new();
    let mut table = scope;
    for name in std::iter::once(root).chain(nested.iter()) {
        if !is_symbol_table(ctx, ir, table) {
            return Vec::new();
        }
        let wanted = ctx.ident_str(*name);
        let Some(sym) = table_ops(ir, table).into_iter().find(|&o| symbol_name(ctx, ir, o) == Some(wanted)) else {
            return Vec::new();
        };
        found.push(sym);
        table = sym;
    }
    found
}

/// Erases the non-live symbols of every symbol table in `root` (innermost tables first).
fn erase_dead_symbols(ctx: &Context, ir: &mut Ir, root: OpId, live: &FxHashSet<OpId>) -> bool {
    let tables: Vec<OpId> =
        ir.collect_ops(root, WalkOrder::PostOrder).into_iter().filter(|&o| is_symbol_table(ctx, ir, o)).collect();
    let mut erased = false;
    for t in tables {
        if !ir.is_live_op(t) {
            continue;
        }
        let ops = table_ops(ir, t);
        for o in ops {
            let is_last = ir.op_block(o).and_then(|b| ir.last_op(b)) == Some(o);
            if is_last && has_trait(ctx, ir, o, Traits::TERMINATOR) {
                continue;
            }
            if is_symbol(ctx, ir, o) && !live.contains(&o) && ir.results_unused(o) {
                ir.erase_op(o);
                erased = true;
            }
        }
    }
    erased
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::T;

    #[test]
    fn erases_unreferenced_private_symbols_only() {
        let mut t = T::new();
        let (m, body) = t.module();
        t.symbol(body, "p.fn", "pub", false);
        t.symbol(body, "p.fn", "priv", true);
        t.symbol(body, "p.fn", "used", true);
        let (_, user_body) = t.symbol(body, "p.fn", "user", true);
        let (_, caller_body) = t.symbol(body, "p.fn", "caller", false);
        // caller (public) -> user (private) -> used (private)
        let call = t.op(caller_body, "u.call", &[], 0);
        let r = t.ctx.symbol_ref("user");
        t.set_attr(call, "callee", r);
        let call2 = t.op(user_body, "u.call", &[], 0);
        let r2 = t.ctx.symbol_ref("used");
        t.set_attr(call2, "callee", r2);
        // A non-symbol op referencing through an array: keeps `kept`.
        t.symbol(body, "p.fn", "kept", true);
        let holder = t.op(body, "u.x", &[], 0);
        let arr = t.ctx.array_attr(vec![t.ctx.symbol_ref("kept")]);
        t.set_attr(holder, "refs", arr);
        assert_eq!(run_symbol_dce(&t.ctx, &mut t.ir, m, &SymbolDceOptions::default()), Ok(true));
        assert_eq!(t.symbols(body), ["pub", "used", "user", "caller", "kept"]);
    }

    #[test]
    fn nested_references_and_tables() {
        let mut t = T::new();
        let (m, body) = t.module();
        let (_, n) = t.symbol(body, "p.module", "n", false);
        t.symbol(n, "p.fn", "inner_pub", false);
        t.symbol(n, "p.fn", "inner_dead", true);
        t.symbol(n, "p.fn", "inner_used", true);
        let (_, q) = t.symbol(body, "p.module", "q", true);
        t.symbol(q, "p.fn", "c", false);
        let user = t.op(body, "u.y", &[], 0);
        let ctx = &t.ctx;
        let r = ctx.intern_attr(AttrKind::SymbolRef { root: ctx.ident("n"), nested: vec![ctx.ident("inner_used")] });
        t.set_attr(user, "ref", r);
        assert_eq!(run_symbol_dce(&t.ctx, &mut t.ir, m, &SymbolDceOptions::default()), Ok(true));
        assert_eq!(t.symbols(body), ["n"]);
        assert_eq!(t.symbols(n), ["inner_pub", "inner_used"]);
    }

    #[test]
    fn unknown_region_op_is_an_error_and_root_must_be_a_table() {
        let mut t = T::new();
        let (m, body) = t.module();
        t.symbol(body, "p.fn", "a", true);
        t.region_op(body, "fz.r");
        let err = run_symbol_dce(&t.ctx, &mut t.ir, m, &SymbolDceOptions::default()).unwrap_err();
        assert!(err.message.starts_with("operation contains potentially unknown symbol table"));
        let (f, _) = t.root();
        let err = run_symbol_dce(&t.ctx, &mut t.ir, f, &SymbolDceOptions::default()).unwrap_err();
        assert_eq!(
            err.message,
            "'p.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table"
        );
    }
}
