//! Registered dialect types and attributes (`!test_d.pair<i32, f32>`, `#test_d.level<3>`): the
//! printer writes `!dialect.mnemonic` and hands the parameters to the definition's print hook,
//! through the printer's implementation of [`DialectAsmPrinter`]. The alias dry run visits the
//! types and attributes among the parameters, in parameter order.

use super::state::{Elision, Printer};
use crate::asm::DialectAsmPrinter;
use crate::attrs::{Attr, DialectData, DialectParam};
use crate::context::Context;
use crate::types::Type;

impl DialectAsmPrinter for Printer<'_> {
    fn ctx(&self) -> &Context {
        self.ctx
    }
    fn write(&mut self, s: &str) {
        self.push(s);
    }
    fn print_type(&mut self, t: Type) {
        Printer::print_type(self, t);
    }
    fn print_attribute(&mut self, a: Attr) {
        self.print_attr(a, Elision::Never);
    }
}

impl Printer<'_> {
    /// `!dialect.mnemonic` (or `#...` for `sigil == '#'`) followed by what the print hook writes.
    /// A definition that went missing (a context made from another registry) prints nothing
    /// after the mnemonic rather than failing.
    pub(crate) fn print_dialect_symbol(&mut self, sigil: char, data: &DialectData) {
        self.push_char(sigil);
        self.push(&data.dialect);
        self.push_char('.');
        self.push(&data.mnemonic);
        let dialect = self.ctx.dialect(&data.dialect);
        let def =
            dialect.and_then(|d| if sigil == '!' { d.type_def(&data.mnemonic) } else { d.attr_def(&data.mnemonic) });
        if let Some(def) = def {
            (def.print)(self, &data.params);
        }
    }

    /// Visits the types and attributes among `params` for the alias dry run.
    pub(crate) fn visit_dialect_params(
        &mut self,
        params: &[DialectParam],
        deferrable: bool,
        children: &mut Vec<(u32, u32)>,
    ) {
        for p in params {
            match p {
                DialectParam::Type(t) => children.push(self.visit_type(*t, deferrable)),
                DialectParam::Attr(a) => children.push(self.visit_attr(*a, deferrable)),
                DialectParam::List(l) => self.visit_dialect_params(l, deferrable, children),
                DialectParam::Int(_) | DialectParam::Keyword(_) => {}
            }
        }
    }
}
