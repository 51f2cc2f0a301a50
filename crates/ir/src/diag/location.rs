//! Reading location attributes: the `file:line:col` a location points to and the call site it
//! is, as MLIR's `findInstanceOf` and `getCallSiteLoc` find them.
//!
//! Layer: just above the context (it reads attribute kinds and identifiers through it); below
//! the parser, which reports positions with it, and the printer.

use crate::attrs::{Attr, AttrKind};
use crate::context::Context;

/// Resolves a location attribute to `(file, line, col)` when it holds one: the first
/// `FileLineColLoc` of a pre-order walk of the location tree (a call site's callee before its
/// caller, fused locations in order), as MLIR's `findInstanceOf` finds it.
pub fn file_line_col(ctx: &Context, loc: Attr) -> Option<(String, u32, u32)> {
    let mut stack = vec![loc];
    // Bounded: locations are finite trees; the cap guards against pathological inputs.
    let mut budget = 1_000_000usize;
    while let Some(cur) = stack.pop() {
        budget = budget.checked_sub(1)?;
        match ctx.attr_kind(cur) {
            AttrKind::FileLineColLoc { file, line, col } => {
                return Some((ctx.ident_str(*file).to_string(), *line, *col));
            }
            AttrKind::NameLoc { child: Some(c), .. } => stack.push(*c),
            AttrKind::CallSiteLoc { callee, caller } => stack.extend([*caller, *callee]),
            AttrKind::FusedLoc { locs, .. } => stack.extend(locs.iter().rev().copied()),
            _ => {}
        }
    }
    None
}

/// MLIR's `getCallSiteLoc`: the call site a location is (possibly under names, or the first
/// one among the parts of a fused location).
pub(crate) fn call_site(ctx: &Context, loc: Attr) -> Option<(Attr, Attr)> {
    call_site_within(ctx, loc, 0)
}

/// [`call_site`] at nesting `depth`: a name's child, or the first call site among the parts of
/// a fused location (MLIR's `getCallSiteLoc`).
fn call_site_within(ctx: &Context, loc: Attr, depth: usize) -> Option<(Attr, Attr)> {
    if depth > 10_000 {
        return None;
    }
    match ctx.attr_kind(loc) {
        AttrKind::NameLoc { child: Some(c), .. } => call_site_within(ctx, *c, depth + 1),
        AttrKind::CallSiteLoc { callee, caller } => Some((*callee, *caller)),
        AttrKind::FusedLoc { locs, .. } => locs.iter().find_map(|&l| call_site_within(ctx, l, depth + 1)),
        _ => None,
    }
}
