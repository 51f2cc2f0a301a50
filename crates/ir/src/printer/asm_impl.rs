//! The printer's implementation of [`OpAsmPrinter`], the interface custom op printers (the
//! `print` hooks of op definitions) are written against.
//!
//! Every method has two behaviours: while printing it appends text; during the alias dry run
//! it only visits the types and attributes it would print (as mlir-opt's alias pass does), so
//! aliases are numbered in the order the custom form prints them. Region argument attributes
//! are not visited, matching mlir-opt.

use super::state::{Elision, Printer};
use super::text::push_symbol;
use crate::asm::OpAsmPrinter;
use crate::attrs::Attr;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value};
use crate::types::Type;

impl OpAsmPrinter for Printer<'_> {
    fn ctx(&self) -> &Context {
        self.ctx
    }

    fn ir(&self) -> &Ir {
        self.ir
    }

    fn write(&mut self, s: &str) {
        if !self.collecting {
            self.push(s);
        }
    }

    fn print_operand(&mut self, v: Value) {
        if !self.collecting {
            self.names.push_value(self.ir, &mut self.out, v, true);
        }
    }

    fn print_operands(&mut self, vs: &[Value]) {
        if self.collecting {
            return;
        }
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.names.push_value(self.ir, &mut self.out, v, true);
        }
    }

    fn print_type(&mut self, t: Type) {
        if self.collecting {
            self.visit_type(t, false);
        } else {
            Printer::print_type(self, t);
        }
    }

    fn print_arrow_type_list(&mut self, ts: &[Type]) {
        if self.collecting {
            for &t in ts {
                self.visit_type(t, false);
            }
        } else {
            self.print_result_types(ts);
        }
    }

    fn print_attribute(&mut self, a: Attr) {
        if self.collecting {
            self.visit_attr(a, false);
        } else {
            self.print_attr(a, Elision::Never);
        }
    }

    fn print_attribute_without_type(&mut self, a: Attr) {
        if self.collecting {
            self.visit_attr(a, false);
        } else {
            self.print_attr(a, Elision::Must);
        }
    }

    fn print_optional_attr_dict(&mut self, dict: Attr, elided: &[&str]) {
        self.attr_dict(dict, elided, false);
    }

    fn print_optional_attr_dict_with_keyword(&mut self, dict: Attr, elided: &[&str]) {
        self.attr_dict(dict, elided, true);
    }

    fn print_symbol_name(&mut self, name: &str) {
        if !self.collecting {
            push_symbol(&mut self.out, name);
        }
    }

    fn print_region_argument(&mut self, v: Value, attrs: Option<Attr>) {
        let ir = self.ir;
        let loc = || ir.value_loc(v).unwrap_or_else(|| self.ctx.unknown_loc());
        if self.collecting {
            self.visit_type(ir.value_type(v), false);
            if self.flags.debug_info {
                let l = loc();
                self.visit_attr(l, false);
            }
            return;
        }
        self.names.push_value(ir, &mut self.out, v, true);
        self.push(": ");
        Printer::print_type(self, ir.value_type(v));
        if let Some(dict) = attrs {
            self.print_attr_dict_filtered(dict, &[], false);
        }
        if self.flags.debug_info {
            self.push_char(' ');
            let l = loc();
            self.print_location(l, false);
        }
    }

    fn print_region(&mut self, r: RegionId, print_entry_block_args: bool, print_empty_block: bool) {
        self.print_region_impl(r, print_entry_block_args, print_empty_block);
    }

    fn print_successor(&mut self, b: BlockId) {
        if !self.collecting {
            self.names.push_block(&mut self.out, b);
        }
    }

    fn print_newline(&mut self) {
        if !self.collecting {
            self.push("\n");
            self.push_indent();
        }
    }

    fn current_op(&self) -> OpId {
        // Hooks only run from `run_custom_printer`, which pushes the op first; calling this
        // elsewhere is a programming error.
        *self.op_stack.last().expect("OpAsmPrinter::current_op called outside an op print hook")
    }
}

impl Printer<'_> {
    fn attr_dict(&mut self, dict: Attr, elided: &[&str], keyword: bool) {
        if self.collecting {
            let ctx = self.ctx;
            for &(k, v) in ctx.dict_entries(dict) {
                if !elided.contains(&ctx.ident_str(k)) {
                    self.visit_attr(v, false);
                }
            }
            return;
        }
        self.print_attr_dict_filtered(dict, elided, keyword);
    }
}
