//! The printer of MLIR's textual format: byte-for-byte what mlir-opt-19 prints.
//!
//! Entry points: [`print_module`] (a whole file, as `mlir-opt` writes it to stdout),
//! [`print_op_for_diagnostic`] (the text after "see current operation: "), [`print_type`] and
//! [`print_attr`] (for messages). Custom op printers are written against
//! [`OpAsmPrinter`](crate::asm::OpAsmPrinter), implemented in `asm_impl`.
//!
//! Layout of the module:
//! - `options`: [`PrintOptions`] and the flags of one print;
//! - `text`: escaping and number helpers on strings;
//! - `op_names`: per-print cache of op definitions and quoted op names;
//! - `names`: SSA value and block numbering (`%0`, `%arg0`, `%c0_1`, `^bb2`);
//! - `aliases`: the alias table and its numbering (`#map`, `#loc3`, `!tuple`);
//! - `state`: the `Printer` struct (output buffer, flags, names, aliases, caches);
//! - `collect`: the alias dry run and the alias definitions;
//! - `types`, `attrs`, `dense`, `float`: types, attributes, locations, dense elements, floats;
//! - `ops`: ops, regions, blocks, generic and custom forms;
//! - `users`: the comments of `--mlir-print-value-users`;
//! - `asm_impl`: the `OpAsmPrinter` implementation;
//! - `dialect`: registered dialect types and attributes (print hooks, `DialectAsmPrinter`).
//!
//! Assumptions about the stored IR (what the parser produces): opaque dialect attributes and
//! types keep their symbol data verbatim in `body` (`params<1, 2>` for `#fz.params<1, 2>`,
//! `"x y"` with its quotes for `#fz<"x y">`) and `pretty` says which form prints
//! (`#fz.body` or `#fz<body>`), decided with MLIR's rule ([`is_simple_dialect_body`]), so
//! `#fz<abc>` prints as `#fz.abc`. Affine maps and integer sets hold MLIR's canonical text.
//!
//! Performance: names live in dense vectors indexed by value and block slots, type strings and
//! attribute dictionaries are printed once per print and cached, and everything is appended to
//! one `String`.
//!
//! Layer: above the definitions (it calls their print hooks) and below the parser's error
//! messages, the verifier and diagnostic rendering. Inside, files only import down this list:
//! `text`, `options`, `float` → `op_names` → `names`, `aliases` → `state` → the rest (which
//! add `Printer` methods) → this file (entry points and re-exports).

mod aliases;
mod asm_impl;
mod attrs;
mod collect;
mod dense;
mod dialect;
pub mod float;
mod names;
mod op_names;
mod ops;
mod options;
mod state;
mod text;
mod types;
mod users;

use crate::attrs::Attr;
use crate::context::Context;
use crate::ir::{Ir, OpId};
use crate::types::Type;
use names::{NameMode, Names};
use options::Flags;
pub use options::PrintOptions;
use state::{Elision, Printer};
pub use text::is_simple_dialect_body;

/// Prints `op` (normally the top-level module) exactly as `mlir-opt` prints a whole file:
/// alias definitions that must come first, the op, a newline, then the deferred location
/// aliases and one more newline.
///
/// Like MLIR's `Operation::print`, an op nested in another one, or any op with `local_scope`,
/// prints on its own without aliases, followed by one newline; its values are numbered from
/// the closest enclosing op that is isolated from above (`local_scope`) or from the outermost
/// op, so that the numbers match those of the enclosing printout.
pub fn print_module(ctx: &Context, ir: &Ir, op: OpId, opts: &PrintOptions) -> String {
    let mut p = Printer::new(ctx, ir, Flags::from_options(opts));
    p.out.reserve(ir.num_ops() * 64);
    print_top_level(&mut p, op, opts);
    p.out
}

/// Like [`print_module`], but streams the text to `sink` as it is produced (the whole file
/// is never held in memory).
pub fn print_module_to(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    opts: &PrintOptions,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut p = Printer::new(ctx, ir, Flags::from_options(opts));
    p.sink = Some(sink);
    print_top_level(&mut p, op, opts);
    p.flush_to_sink();
    match p.sink_error.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn print_top_level(p: &mut Printer<'_>, op: OpId, opts: &PrintOptions) {
    let (ctx, ir) = (p.ctx, p.ir);
    let root = p.numbering_root(op, opts.local_scope);
    let mode =
        NameMode { unique: opts.generic || opts.unique_ssa_ids, custom: !opts.generic, number_ops: opts.value_users };
    p.names = Names::compute(ctx, ir, root, mode, &mut p.op_names);
    if opts.local_scope || ir.parent_op(op).is_some() {
        p.print_full_op(op);
        p.push_char('\n');
        return;
    }
    p.collect_aliases(op);
    p.print_alias_definitions(false);
    p.print_full_op(op);
    p.push_char('\n');
    p.print_alias_definitions(true);
    print_resources(p);
    p.push_char('\n');
}

/// The `{-# ... #-}` section after a module: the printed `dense_resource` blobs that the
/// parsed file defined (in first-print order), then the external resources, as mlir-opt.
///
/// With `--mlir-elide-resource-strings-if-larger=N`, an entry whose printed value (a blob's
/// quoted hex string, a quoted string, `true`) is longer than N characters is left out, and so
/// is a group or section left empty; as in mlir-opt the `{-#` `#-}` brackets still print
/// (around an empty line) when every entry was left out.
fn print_resources(p: &mut Printer<'_>) {
    let res = p.ctx.resources().clone();
    let blobs: Vec<(String, String)> =
        p.resource_refs.iter().filter_map(|r| res.blobs.iter().find(|(k, _)| k == r).cloned()).collect();
    if blobs.is_empty() && res.external.is_empty() {
        return;
    }
    let limit = p.flags.resource_string_limit;
    let kept = |entries: &[(String, String)]| -> Vec<String> {
        entries
            .iter()
            .filter(|(_, v)| limit.is_none_or(|n| v.len() as u64 <= n))
            .map(|(k, v)| format!("      {k}: {v}"))
            .collect()
    };
    let group = |name: &str, lines: Vec<String>| format!("    {name}: {{\n{}\n    }}", lines.join(",\n"));
    let mut sections = Vec::new();
    let builtin = kept(&blobs);
    if !builtin.is_empty() {
        sections.push(format!("  dialect_resources: {{\n{}\n  }}", group("builtin", builtin)));
    }
    let groups: Vec<String> = res
        .external
        .iter()
        .map(|(g, e)| (g, kept(e)))
        .filter(|(_, lines)| !lines.is_empty())
        .map(|(g, lines)| group(g, lines))
        .collect();
    if !groups.is_empty() {
        sections.push(format!("  external_resources: {{\n{}\n  }}", groups.join(",\n")));
    }
    p.push("\n{-#\n");
    p.push(&sections.join(",\n"));
    p.push("\n#-}\n");
}

/// Prints one op (with its regions) as mlir-opt does in a diagnostic note
/// ("see current operation: ..."): generic form, no aliases, dense elements of more than 16
/// elements elided, values numbered from the closest enclosing op that is isolated from above
/// (or the outermost op), with locations under [`Context::debug_info_in_notes`]. With
/// [`Context::value_users_in_notes`] the users comments of
/// `--mlir-print-value-users` are printed too (after the op, and for block arguments inside
/// it). The text has no trailing newline; mlir-opt puts a newline before it when it spans
/// several lines.
pub fn print_op_for_diagnostic(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let value_users = ctx.value_users_in_notes();
    let (debug_info, pretty_debug_info) = ctx.debug_info_in_notes();
    let flags = Flags {
        generic: true,
        debug_info,
        elide_limit: Some(16),
        pretty_debug_info,
        hex_limit: options::DEFAULT_HEX_LIMIT,
        skip_regions: false,
        value_users,
        resource_string_limit: None,
    };
    let mut p = Printer::new(ctx, ir, flags);
    let root = p.numbering_root(op, true);
    let mode = NameMode { unique: true, custom: false, number_ops: value_users };
    p.names = Names::compute(ctx, ir, root, mode, &mut p.op_names);
    p.print_operation(op);
    if debug_info {
        p.push_char(' ');
        p.print_location(ir.loc(op), true);
    }
    if value_users {
        p.print_users_comment(op);
    }
    p.out
}

/// Prints a type as it appears in diagnostics (no aliases).
pub fn print_type(ctx: &Context, t: Type) -> String {
    let ir = Ir::new();
    let mut p = Printer::new(ctx, &ir, Flags::default());
    p.print_type(t);
    p.out
}

/// Prints an attribute as it appears in diagnostics (no aliases; locations as `loc(...)`).
pub fn print_attr(ctx: &Context, a: Attr) -> String {
    let ir = Ir::new();
    let mut p = Printer::new(ctx, &ir, Flags::default());
    p.print_attr(a, Elision::Never);
    p.out
}

#[cfg(test)]
mod tests;
