//! The pass reference page (`docs/passes.md`), generated from the declarative pass metadata
//! (name, display name, anchor, summary, description, options) so it never drifts from the
//! code. A test fails when the checked-in page is stale.

use fuser_ir::pass::{OptionDef, OptionType, PassRegistry};
use std::fmt::Write as _;

/// The Markdown reference of every registered pass and named pipeline.
pub fn passes_doc(registry: &PassRegistry) -> String {
    let mut out = String::from(
        "# Passes\n\n<!-- Generated from the pass metadata by `fuser_passes::doc::passes_doc`; \
regenerate with `UPDATE_DOCS=1 cargo test -p fuser-passes --test docs`. -->\n\n\
Run a pass with `--pass-pipeline='builtin.module(NAME{option=value})'` or as a flag \
(`--NAME`). Options are written as space-separated `key=value` pairs; list options take \
comma-separated values.\n",
    );
    for p in registry.passes() {
        let _ = write!(out, "\n## `{}` ({})\n\n{}\n\n", p.name, p.display, p.summary);
        if let Some(anchor) = p.anchor {
            let _ = writeln!(out, "Runs on: `{anchor}`.\n");
        } else {
            out.push_str("Runs on: any op.\n\n");
        }
        if !p.description.is_empty() {
            let _ = writeln!(out, "{}\n", p.description);
        }
        write_options(&mut out, p.options);
    }
    for p in registry.pipelines() {
        let _ = write!(out, "\n## Pipeline `{}`\n\n{}\n\n", p.name, p.summary);
        if !p.description.is_empty() {
            let _ = writeln!(out, "{}\n", p.description);
        }
        write_options(&mut out, p.options);
    }
    out
}

/// `Options: none.` or a table of the options.
fn write_options(out: &mut String, options: &[OptionDef]) {
    if options.is_empty() {
        out.push_str("Options: none.\n");
        return;
    }
    out.push_str("| option | type | default | description |\n|---|---|---|---|\n");
    for o in options {
        let ty = match o.ty {
            OptionType::Bool => "bool".to_string(),
            OptionType::Int => "integer".to_string(),
            OptionType::String => "string".to_string(),
            OptionType::Enum(cases) => cases.iter().map(|c| c.name).collect::<Vec<_>>().join(" \\| "),
        };
        let ty = if o.list { format!("list of {ty}") } else { ty };
        let _ = writeln!(out, "| `{}` | {ty} | `{}` | {} |", o.name, o.default, o.description);
    }
}
