//! The `#arith.overflow<...>` flags of `addi`/`subi`/`muli`/`shli` and the canonical printed
//! form of arith's opaque attributes.

use super::fastmath;
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;

/// The `#arith.overflow<...>` flags of `addi`/`subi`/`muli`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct OverflowFlags {
    pub nsw: bool,
    pub nuw: bool,
}

impl OverflowFlags {
    /// `none`, `nsw`, `nuw` or `nsw, nuw`: the body of `overflow<...>` as MLIR prints it.
    pub fn keywords(self) -> &'static str {
        match (self.nsw, self.nuw) {
            (false, false) => "none",
            (true, false) => "nsw",
            (false, true) => "nuw",
            (true, true) => "nsw, nuw",
        }
    }

    /// Adds one flag keyword; `false` for an unknown keyword.
    pub fn add_keyword(&mut self, kw: &str) -> bool {
        match kw {
            "none" => {}
            "nsw" => self.nsw = true,
            "nuw" => self.nuw = true,
            _ => return false,
        }
        true
    }

    /// The attribute `#arith.overflow<...>` (kept as an opaque dialect attribute).
    pub fn to_attr(self, ctx: &Context) -> Attr {
        ctx.intern_attr(AttrKind::Opaque {
            dialect: "arith".into(),
            body: format!("overflow<{}>", self.keywords()).into(),
            pretty: true,
        })
    }

    /// Reads `#arith.overflow<...>`, accepting any spacing and order of the flags.
    pub fn from_attr(ctx: &Context, a: Attr) -> Option<OverflowFlags> {
        let AttrKind::Opaque { dialect, body, .. } = ctx.attr_kind(a) else { return None };
        let inner = body.strip_prefix("overflow")?.trim().strip_prefix('<')?.strip_suffix('>')?;
        let mut flags = OverflowFlags::default();
        for kw in inner.split(',') {
            if !flags.add_keyword(kw.trim()) {
                return None;
            }
        }
        (&**dialect == "arith").then_some(flags)
    }
}

/// The arith attributes in printed form: `overflow<nuw,nsw>` becomes `overflow<nsw, nuw>`,
/// `fastmath<contract, nnan>` becomes `fastmath<nnan,contract>`. Other bodies are left as
/// written.
pub fn canonical_attr_body(body: &str) -> Option<String> {
    if body.starts_with("fastmath") {
        return fastmath::canonical_fastmath_body(body);
    }
    let inner = body.strip_prefix("overflow")?.trim().strip_prefix('<')?.strip_suffix('>')?;
    let mut flags = OverflowFlags::default();
    for kw in inner.split(',') {
        if !flags.add_keyword(kw.trim()) {
            return None;
        }
    }
    Some(format!("overflow<{}>", flags.keywords()))
}
