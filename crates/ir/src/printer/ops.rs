//! Operations, regions and blocks.
//!
//! Generic form (mlir-opt's `printGenericOp`):
//! `%0:2 = "dialect.op"(%a, %b)[^bb1, ^bb2] <{props}> ({ regions }, { ... }) {attrs} : (types) -> types`
//! - successors follow the operand list without a space;
//! - properties print when stored (an unregistered op prints even `<{}>`; a registered op
//!   only non-empty ones, and a registered op whose properties sit in its attribute
//!   dictionary has them moved to `<{...}>` by `OpDef::properties`);
//! - every region prints its entry block label when the block has arguments or is empty.
//!
//! Custom form: a registered op with a print hook prints its name (dropping the enclosing
//! region's default dialect prefix when the name has exactly one dot) and lets the hook print
//! the rest; other ops print generically. `builtin.module` has a built-in fallback so that the
//! custom form works without the dialects crate, and its regions default to the `builtin`
//! dialect, as MLIR's `ModuleOp` does.
//!
//! Blocks: `^bbN(%a: t loc(..)):` labels with `// pred: ^bb0`, `// 2 preds: ^bb0, ^bb1`, or
//! `// no predecessors` (non-entry blocks only) comments; ops indented two spaces per level.

use super::state::{Elision, Printer};
use crate::attrs::{Attr, Ident};
use crate::ir::{BlockId, OpId, RegionId};
use crate::registry::{OpDef, Traits};

const BUILTIN_MODULE: &str = "builtin.module";

impl Printer<'_> {
    /// An op on its own line: indentation, the op, and its trailing location.
    pub fn print_full_op(&mut self, op: OpId) {
        self.push_indent();
        self.print_operation(op);
        if self.flags.debug_info {
            self.push_char(' ');
            self.print_location(self.ir.loc(op), true);
        }
        if self.flags.value_users {
            self.print_users_comment(op);
        }
    }

    /// `%0 = ...` followed by the op in custom or generic form.
    pub fn print_operation(&mut self, op: OpId) {
        self.print_result_prefix(op);
        if !self.flags.generic && self.run_custom_printer(op) {
            return;
        }
        self.print_generic(op);
    }

    fn print_result_prefix(&mut self, op: OpId) {
        let ir = self.ir;
        let n = ir.num_results(op) as u32;
        if n == 0 {
            return;
        }
        let groups = self.names.result_groups(op);
        if groups.is_empty() {
            self.print_result_group(op, 0, n);
        } else {
            let groups: Vec<u32> = groups.to_vec();
            for (i, &start) in groups.iter().enumerate() {
                if i > 0 {
                    self.push(", ");
                }
                let end = groups.get(i + 1).copied().unwrap_or(n);
                self.print_result_group(op, start, end - start);
            }
        }
        self.push(" = ");
    }

    fn print_result_group(&mut self, op: OpId, start: u32, count: u32) {
        let v = self.ir.result(op, start as usize);
        self.names.push_value(self.ir, &mut self.out, v, false);
        if count > 1 {
            self.push_char(':');
            self.push_u64(count as u64);
        }
    }

    /// Runs the op's custom printer, if it has one (also in the alias dry run). Returns false
    /// when the op must be printed generically.
    pub fn run_custom_printer(&mut self, op: OpId) -> bool {
        let (ctx, ir) = (self.ctx, self.ir);
        let name = ctx.op_name_str(ir.op_name(op));
        let def = self.op_names.def(ctx, ir.op_name(op));
        let hook = match def {
            Some(d) => d.print,
            None => None,
        };
        let module_fallback = hook.is_none() && def.is_none() && name == BUILTIN_MODULE;
        if hook.is_none() && !module_fallback {
            return false;
        }
        if !self.collecting {
            self.print_custom_op_name(name);
        }
        self.op_stack.push(op);
        match hook {
            Some(print) => print(self, op),
            None => self.print_module_fallback(op),
        }
        self.op_stack.pop();
        true
    }

    /// The op name, without the default dialect's prefix when unambiguous.
    fn print_custom_op_name(&mut self, name: &str) {
        let dialect = self.default_dialects.last().copied().unwrap_or("");
        let short = name.strip_prefix(dialect).and_then(|r| r.strip_prefix('.')).filter(|r| !r.contains('.'));
        match short {
            Some(rest) if !dialect.is_empty() => self.push(rest),
            _ => self.push(name),
        }
    }

    /// `module @name attributes {...} {` ... `}` for a `builtin.module` without a registered
    /// definition (what MLIR's module printer prints).
    fn print_module_fallback(&mut self, op: OpId) {
        use crate::asm::OpAsmPrinter;
        let (ctx, ir) = (self.ctx, self.ir);
        let props = ir.props(op);
        let sym = props.and_then(|p| ctx.dict_get(p, "sym_name")).or_else(|| ctx.dict_get(ir.attrs(op), "sym_name"));
        if let Some(name) = sym.and_then(|s| ctx.attr_str(s)) {
            self.write(" ");
            self.print_symbol_name(name);
        }
        let mut entries: Vec<(Ident, Attr)> = ctx.dict_entries(ir.attrs(op)).to_vec();
        if let Some(p) = props {
            entries.extend_from_slice(ctx.dict_entries(p));
        }
        let dict = ctx.dictionary(entries);
        self.print_optional_attr_dict_with_keyword(dict, &["sym_name"]);
        if let Some(&r) = ir.regions(op).first() {
            self.write(" ");
            self.print_region(r, false, false);
        }
    }

    /// The generic form.
    pub fn print_generic(&mut self, op: OpId) {
        let (ctx, ir) = (self.ctx, self.ir);
        self.out.push_str(self.op_names.quoted(ctx, ir.op_name(op)));
        self.push_char('(');
        for i in 0..ir.num_operands(op) {
            if i > 0 {
                self.push(", ");
            }
            self.names.push_value(ir, &mut self.out, ir.operand(op, i), true);
        }
        self.push_char(')');
        let succs = ir.successors(op);
        if !succs.is_empty() {
            self.push_char('[');
            for (i, &b) in succs.iter().enumerate() {
                if i > 0 {
                    self.push(", ");
                }
                self.names.push_block(&mut self.out, b);
            }
            self.push_char(']');
        }
        let def = self.op_names.def(ctx, ir.op_name(op));
        let (props, attrs) = self.generic_props_and_attrs(op, def);
        if let Some(p) = props {
            self.push(" <");
            self.print_attr(p, Elision::Never);
            self.push_char('>');
        }
        let regions = ir.regions(op);
        if !regions.is_empty() {
            self.push(" (");
            for (i, &r) in regions.iter().enumerate() {
                if i > 0 {
                    self.push(", ");
                }
                self.print_region_impl(r, true, true);
            }
            self.push_char(')');
        }
        if !ctx.dict_entries(attrs).is_empty() {
            self.push_char(' ');
            self.print_attr(attrs, Elision::Never);
        }
        self.push(" : (");
        for i in 0..ir.num_operands(op) {
            if i > 0 {
                self.push(", ");
            }
            self.print_type(ir.value_type(ir.operand(op, i)));
        }
        self.push(") -> ");
        let results = ir.results(op);
        if results.len() == 1
            && !matches!(ctx.type_kind(ir.value_type(results[0])), crate::types::TypeKind::Function { .. })
        {
            self.print_type(ir.value_type(results[0]));
        } else {
            self.push_char('(');
            for (i, &v) in results.iter().enumerate() {
                if i > 0 {
                    self.push(", ");
                }
                self.print_type(ir.value_type(v));
            }
            self.push_char(')');
        }
    }

    /// The properties to print in `<{...}>` and the attribute dictionary to print after.
    fn generic_props_and_attrs(&self, op: OpId, def: Option<&'static OpDef>) -> (Option<Attr>, Attr) {
        let (ctx, ir) = (self.ctx, self.ir);
        let attrs = ir.attrs(op);
        let inherent = self.inherent_names(op, def);
        match ir.props(op) {
            Some(p) if inherent.is_none() => (Some(p), attrs),
            Some(p) => ((!ctx.dict_entries(p).is_empty()).then_some(p), attrs),
            None => {
                let Some(names) = inherent.filter(|n| !n.is_empty()) else {
                    return (None, attrs);
                };
                let entries = ctx.dict_entries(attrs);
                if !entries.iter().any(|(k, _)| names.contains(&ctx.ident_str(*k))) {
                    return (None, attrs);
                }
                let (props, rest): (Vec<_>, Vec<_>) =
                    entries.iter().copied().partition(|(k, _)| names.contains(&ctx.ident_str(*k)));
                (Some(ctx.dictionary(props)), ctx.dictionary(rest))
            }
        }
    }

    /// The property names of a registered op (`None` for an unregistered op). An unregistered
    /// `builtin.module` is treated as MLIR's: `sym_name` and `sym_visibility` are properties.
    pub fn inherent_names(&self, op: OpId, def: Option<&'static OpDef>) -> Option<&'static [&'static str]> {
        match def {
            Some(d) => Some(d.properties),
            None if self.ctx.op_name_str(self.ir.op_name(op)) == BUILTIN_MODULE => {
                Some(&["sym_name", "sym_visibility"])
            }
            None => None,
        }
    }

    /// A region: `{`, its blocks, `}` (the closing brace indented like the op). In the dry run
    /// it visits instead.
    pub fn print_region_impl(&mut self, r: RegionId, print_entry_args: bool, print_empty_block: bool) {
        if self.collecting {
            self.collect_region(r, print_entry_args);
            return;
        }
        let ir = self.ir;
        if self.flags.skip_regions {
            self.push("{...}");
            return;
        }
        self.push("{\n");
        let blocks = ir.region_blocks(r);
        if let Some(&entry) = blocks.first() {
            let dialect = self.region_default_dialect(r);
            self.default_dialects.push(dialect);
            let header = (print_empty_block && ir.block_is_empty(entry))
                || (print_entry_args && !ir.block_args(entry).is_empty());
            self.print_block(entry, header, true);
            for &b in &blocks[1..] {
                self.print_block(b, true, false);
            }
            self.default_dialects.pop();
        }
        self.push_indent();
        self.push_char('}');
    }

    /// The dialect whose prefix ops directly in `r` may omit.
    fn region_default_dialect(&mut self, r: RegionId) -> &'static str {
        let (ctx, ir) = (self.ctx, self.ir);
        let Some(parent) = ir.region_parent(r) else {
            return "";
        };
        let name = ir.op_name(parent);
        match self.op_names.def(ctx, name) {
            Some(d) if d.default_dialect.is_some() => d.default_dialect.unwrap_or(""),
            _ if ctx.op_name_str(name) == BUILTIN_MODULE => "builtin",
            _ => "",
        }
    }

    fn print_block(&mut self, b: BlockId, header: bool, is_entry: bool) {
        let ir = self.ir;
        if header {
            self.push_indent();
            self.names.push_block(&mut self.out, b);
            let args = ir.block_args(b);
            if !args.is_empty() {
                self.push_char('(');
                for (i, &arg) in args.iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.names.push_value(ir, &mut self.out, arg, true);
                    self.push(": ");
                    self.print_type(ir.value_type(arg));
                    if self.flags.debug_info {
                        self.push_char(' ');
                        let loc = ir.value_loc(arg).unwrap_or_else(|| self.ctx.unknown_loc());
                        self.print_location(loc, false);
                    }
                }
                self.push_char(')');
            }
            self.push_char(':');
            self.print_pred_comment(b, is_entry);
            self.push_char('\n');
        }
        self.indent += 2;
        if self.flags.value_users {
            self.print_block_arg_users(b);
        }
        for op in ir.block_ops(b) {
            self.print_full_op(op);
            self.push_char('\n');
            self.maybe_flush();
        }
        self.indent -= 2;
    }

    fn print_pred_comment(&mut self, b: BlockId, is_entry: bool) {
        let preds = self.names.preds(b);
        match preds.len() {
            0 => {
                if !is_entry {
                    self.push("  // no predecessors");
                }
            }
            1 => {
                let p = preds[0];
                self.push("  // pred: ");
                self.names.push_block(&mut self.out, p);
            }
            n => {
                let mut nums: Vec<(u32, BlockId)> =
                    preds.iter().map(|&p| (self.names.block_number(p).unwrap_or(u32::MAX), p)).collect();
                nums.sort_by_key(|x| x.0);
                self.push("  // ");
                self.push_u64(n as u64);
                self.push(" preds: ");
                for (i, (_, p)) in nums.into_iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.names.push_block(&mut self.out, p);
                }
            }
        }
    }

    /// The op values are numbered from when printing `op`: with `local_scope`, the closest
    /// ancestor-or-self isolated from above; otherwise (or when there is none) the outermost.
    pub fn numbering_root(&mut self, op: OpId, local_scope: bool) -> OpId {
        let mut root = op;
        loop {
            if local_scope && self.is_isolated(root) {
                return root;
            }
            match self.ir.parent_op(root) {
                Some(parent) => root = parent,
                None => return root,
            }
        }
    }

    /// Whether `op` is isolated from above (registered with the trait).
    pub fn is_isolated(&mut self, op: OpId) -> bool {
        self.op_names.def(self.ctx, self.ir.op_name(op)).is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE))
    }
}
