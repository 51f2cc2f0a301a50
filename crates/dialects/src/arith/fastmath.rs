//! The `#arith.fastmath<...>` flags of the float ops: the attribute (kept as opaque dialect
//! text, as `#arith.overflow`), its custom-syntax clause `fastmath<nnan,contract>`, and its
//! canonical spelling (`fast` when every flag is set, otherwise the set flags in MLIR's order,
//! separated by bare commas).

use fuser_ir::asm::{OpAsmParser, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;

/// The flag keywords in MLIR's bit order (`reassoc` is bit 0).
const FLAG_NAMES: [&str; 7] = ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"];
/// Every flag set.
const ALL: u8 = 0x7f;

/// A set of fast-math flags.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct FastMathFlags(pub u8);

impl FastMathFlags {
    pub const NONE: FastMathFlags = FastMathFlags(0);
    pub const NNAN: FastMathFlags = FastMathFlags(2);

    /// True when every flag of `other` is set.
    pub fn contains(self, other: FastMathFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The body of `fastmath<...>` as MLIR prints it.
    pub fn keywords(self) -> String {
        match self.0 {
            0 => "none".into(),
            ALL => "fast".into(),
            bits => {
                let set = FLAG_NAMES.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0);
                set.map(|(_, n)| *n).collect::<Vec<_>>().join(",")
            }
        }
    }

    /// Adds one flag keyword; `false` for an unknown keyword.
    pub fn add_keyword(&mut self, kw: &str) -> bool {
        match kw {
            "none" => {}
            "fast" => self.0 = ALL,
            _ => match FLAG_NAMES.iter().position(|n| *n == kw) {
                Some(i) => self.0 |= 1 << i,
                None => return false,
            },
        }
        true
    }

    /// Reads a comma-separated keyword list (any spacing); `None` if a keyword is unknown.
    pub fn from_list(list: &str) -> Option<FastMathFlags> {
        let mut flags = FastMathFlags::NONE;
        for kw in list.split(',') {
            if !flags.add_keyword(kw.trim()) {
                return None;
            }
        }
        Some(flags)
    }

    /// The attribute `#arith.fastmath<...>`.
    pub fn to_attr(self, ctx: &Context) -> Attr {
        ctx.intern_attr(AttrKind::Opaque {
            dialect: "arith".into(),
            body: format!("fastmath<{}>", self.keywords()).into(),
            pretty: true,
        })
    }

    /// Reads `#arith.fastmath<...>`.
    pub fn from_attr(ctx: &Context, a: Attr) -> Option<FastMathFlags> {
        let AttrKind::Opaque { dialect, body, .. } = ctx.attr_kind(a) else { return None };
        let flags = Self::from_list(fastmath_list(body)?)?;
        (&**dialect == "arith").then_some(flags)
    }
}

/// The list inside `fastmath<...>`.
fn fastmath_list(body: &str) -> Option<&str> {
    body.strip_prefix("fastmath")?.trim().strip_prefix('<')?.strip_suffix('>')
}

/// `fastmath<nnan,contract>` in canonical form, for a `fastmath<...>` body.
pub fn canonical_fastmath_body(body: &str) -> Option<String> {
    let flags = FastMathFlags::from_list(fastmath_list(body)?)?;
    Some(format!("fastmath<{}>", flags.keywords()))
}

/// `fastmath`: MLIR's `Arith_FastMathAttr` (defaults to `none`).
pub(crate) const FASTMATH: AttrConstraint =
    AttrConstraint::new("Floating point fast math flags", |ctx, a| FastMathFlags::from_attr(ctx, a).is_some())
        .optional();

/// The default properties of an op with fast-math flags.
pub(crate) fn default_fastmath(ctx: &Context) -> Vec<(&'static str, Attr)> {
    vec![("fastmath", FastMathFlags::NONE.to_attr(ctx))]
}

/// The flags of `op`'s `fastmath` property (`none` when absent or malformed).
pub(crate) fn fastmath_of(ctx: &Context, ir: &fuser_ir::ir::Ir, op: fuser_ir::ir::OpId) -> FastMathFlags {
    crate::support::inherent_attr(ctx, ir, op, "fastmath")
        .and_then(|a| FastMathFlags::from_attr(ctx, a))
        .unwrap_or_default()
}

/// The custom-syntax clause `fastmath<flags>`, if present.
pub(crate) fn parse_optional_fastmath(p: &mut dyn OpAsmParser) -> ParseResult<Option<FastMathFlags>> {
    if !p.parse_optional_keyword("fastmath") {
        return Ok(None);
    }
    p.parse_punct(Punct::Less)?;
    let mut flags = FastMathFlags::NONE;
    loop {
        let offset = p.current_offset();
        let Some(kw) = p.parse_optional_bare_id() else {
            p.emit_error_at(offset, "expected valid keyword");
            return Err(parameter_error(p));
        };
        if !flags.add_keyword(&kw) {
            p.emit_error_at(
                offset,
                "expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast",
            );
            return Err(parameter_error(p));
        }
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::Greater)?;
    Ok(Some(flags))
}

/// MLIR's second error after a bad flag list, at the current position.
fn parameter_error(p: &mut dyn OpAsmParser) -> fuser_ir::asm::ParseFailure {
    p.emit_error("failed to parse Arith_FastMathAttr parameter 'value' which is to be a `::mlir::arith::FastMathFlags`")
}

/// Prints ` fastmath<flags>` unless the flags are `none`.
pub(crate) fn print_fastmath(p: &mut dyn fuser_ir::asm::OpAsmPrinter, flags: FastMathFlags) {
    if flags != FastMathFlags::NONE {
        p.write(" fastmath<");
        p.write(&flags.keywords());
        p.write(">");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_follow_mlir_order_and_fast() {
        let f = FastMathFlags::from_list("contract, nnan").unwrap();
        assert_eq!(f.keywords(), "nnan,contract");
        assert_eq!(FastMathFlags::from_list("nnan,fast").unwrap().keywords(), "fast");
        assert_eq!(FastMathFlags::from_list("reassoc,nnan,ninf,nsz,arcp,contract,afn").unwrap().keywords(), "fast");
        assert_eq!(FastMathFlags::from_list("none").unwrap().keywords(), "none");
        assert_eq!(FastMathFlags::from_list("bogus"), None);
        assert_eq!(canonical_fastmath_body("fastmath<afn, reassoc>").as_deref(), Some("fastmath<reassoc,afn>"));
    }

    #[test]
    fn attribute_round_trip() {
        let ctx = Context::empty();
        let f = FastMathFlags::from_list("ninf,nsz").unwrap();
        assert_eq!(FastMathFlags::from_attr(&ctx, f.to_attr(&ctx)), Some(f));
    }
}
