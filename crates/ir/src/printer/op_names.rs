//! The per-print cache of op names: for each op name, its registered definition and its quoted,
//! escaped spelling for the generic form, looked up once per print.
//!
//! Layer: printer data, above the registry (it reads op definitions through the context).

use super::text::push_quoted;
use crate::context::Context;
use crate::ir::OpName;
use crate::registry::OpDef;

/// Per op name (dense by `OpName` number): its registered definition and its quoted, escaped
/// spelling for the generic form, looked up once per print.
#[derive(Default)]
pub(crate) struct OpNameCache {
    entries: Vec<Option<(Option<&'static OpDef>, Box<str>)>>,
}

impl OpNameCache {
    fn entry(&mut self, ctx: &Context, name: OpName) -> &(Option<&'static OpDef>, Box<str>) {
        let i = name.0 as usize;
        if self.entries.len() <= i {
            self.entries.resize(i + 1, None);
        }
        self.entries[i].get_or_insert_with(|| {
            let mut quoted = String::new();
            push_quoted(&mut quoted, ctx.op_name_str(name).as_bytes());
            (ctx.op_def(name), quoted.into())
        })
    }

    pub fn def(&mut self, ctx: &Context, name: OpName) -> Option<&'static OpDef> {
        self.entry(ctx, name).0
    }

    pub fn quoted(&mut self, ctx: &Context, name: OpName) -> &str {
        &self.entry(ctx, name).1
    }
}
