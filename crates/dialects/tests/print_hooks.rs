//! Custom-form print hooks, checked against mlir-opt-19's spelling with a minimal stand-in
//! printer (values are named `%0`, `%1`, ... in first-use order; regions print as `{...}`).
//! The real printer's end-to-end round trips live in `test/Dialect/*/ops.mlir`.

use fuser_dialects::arith::{self, CmpPredicate, OverflowFlags};
use fuser_dialects::{builtin, func, type_str};
use fuser_ir::asm::OpAsmPrinter;
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, RegionId, Value};
use fuser_ir::types::Type;
use std::collections::HashMap;

struct MockPrinter<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    out: String,
    names: HashMap<Value, usize>,
    op: OpId,
}

impl MockPrinter<'_> {
    fn attr_text(&self, a: Attr, with_type: bool) -> String {
        match self.ctx.attr_kind(a) {
            AttrKind::Unit => String::new(),
            AttrKind::Bool(b) => b.to_string(),
            AttrKind::Integer { value, ty } if with_type => {
                format!("{} : {}", value.to_string_signed(), type_str(self.ctx, *ty))
            }
            AttrKind::Integer { value, .. } => value.to_string_signed(),
            AttrKind::String { value, .. } => format!("{:?}", String::from_utf8_lossy(value)),
            AttrKind::Opaque { dialect, body, .. } => format!("#{dialect}.{body}"),
            AttrKind::Dictionary(_) => self.dict_text(a, &[]),
            other => format!("{other:?}"),
        }
    }
    fn dict_text(&self, dict: Attr, elided: &[&str]) -> String {
        let parts: Vec<String> = self
            .ctx
            .dict_entries(dict)
            .iter()
            .filter(|(k, _)| !elided.contains(&self.ctx.ident_str(*k)))
            .map(|(k, v)| {
                let k = self.ctx.ident_str(*k);
                if *v == self.ctx.unit_attr() { k.to_string() } else { format!("{k} = {}", self.attr_text(*v, true)) }
            })
            .collect();
        if parts.is_empty() { String::new() } else { format!("{{{}}}", parts.join(", ")) }
    }
}

impl OpAsmPrinter for MockPrinter<'_> {
    fn ctx(&self) -> &Context {
        self.ctx
    }
    fn ir(&self) -> &Ir {
        self.ir
    }
    fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }
    fn print_operand(&mut self, v: Value) {
        let n = self.names.len();
        let id = *self.names.entry(v).or_insert(n);
        self.out.push_str(&format!("%{id}"));
    }
    fn print_operands(&mut self, vs: &[Value]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.print_operand(v);
        }
    }
    fn print_type(&mut self, t: Type) {
        let s = type_str(self.ctx, t);
        self.write(&s);
    }
    fn print_arrow_type_list(&mut self, ts: &[Type]) {
        let s: Vec<String> = ts.iter().map(|&t| type_str(self.ctx, t)).collect();
        self.write(&format!("({})", s.join(", ")));
    }
    fn print_attribute(&mut self, a: Attr) {
        let s = self.attr_text(a, true);
        self.write(&s);
    }
    fn print_attribute_without_type(&mut self, a: Attr) {
        let s = self.attr_text(a, false);
        self.write(&s);
    }
    fn print_optional_attr_dict(&mut self, dict: Attr, elided: &[&str]) {
        let s = self.dict_text(dict, elided);
        if !s.is_empty() {
            self.write(&format!(" {s}"));
        }
    }
    fn print_optional_attr_dict_with_keyword(&mut self, dict: Attr, elided: &[&str]) {
        let s = self.dict_text(dict, elided);
        if !s.is_empty() {
            self.write(&format!(" attributes {s}"));
        }
    }
    fn print_symbol_name(&mut self, name: &str) {
        self.write(&format!("@{name}"));
    }
    fn print_region_argument(&mut self, v: Value, attrs: Option<Attr>) {
        self.print_operand(v);
        let ty = type_str(self.ctx, self.ir.value_type(v));
        self.write(&format!(": {ty}"));
        if let Some(a) = attrs {
            self.print_optional_attr_dict(a, &[]);
        }
    }
    fn print_region(&mut self, _r: RegionId, _entry_args: bool, _empty_block: bool) {
        self.write("{...}");
    }
    fn print_successor(&mut self, _b: BlockId) {
        self.write("^bb");
    }
    fn print_newline(&mut self) {
        self.write("\n");
    }
    fn current_op(&self) -> OpId {
        self.op
    }
}

/// The custom form of `op` after its name, as the hook prints it.
fn custom(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let def = ctx.op_def(ir.op_name(op)).expect("registered op");
    let mut p = MockPrinter { ctx, ir, out: String::new(), names: HashMap::new(), op };
    def.print.expect("custom printer")(&mut p, op);
    p.out
}

struct Setup {
    ctx: Context,
    ir: Ir,
    block: BlockId,
}

fn setup() -> Setup {
    let ctx = Context::new(fuser_dialects::registry());
    let mut ir = Ir::new();
    let block = ir.create_block(&[]);
    Setup { ctx, ir, block }
}

impl Setup {
    fn add(&mut self, state: fuser_ir::ir::OperationState) -> OpId {
        let op = self.ir.create_op(state);
        self.ir.append_op(self.block, op);
        op
    }
}

#[test]
fn arith_forms() {
    let mut s = setup();
    let (i32t, idx) = (s.ctx.integer_type(32), s.ctx.index_type());
    let a = s.ir.add_block_arg(s.block, i32t, None);
    let b = s.ir.add_block_arg(s.block, i32t, None);
    let loc = s.ctx.unknown_loc();
    let add = s.add(arith::binary_state(&s.ctx, "arith.addi", a, b, i32t, loc));
    assert_eq!(custom(&s.ctx, &s.ir, add), " %0, %1 : i32");
    let flags = OverflowFlags { nsw: true, nuw: true }.to_attr(&s.ctx);
    let props = s.ctx.dict_set(s.ir.props(add).unwrap(), "overflowFlags", Some(flags));
    s.ir.set_props(add, Some(props));
    assert_eq!(custom(&s.ctx, &s.ir, add), " %0, %1 overflow<nsw, nuw> : i32");
    let div = s.add(arith::binary_state(&s.ctx, "arith.divsi", a, b, i32t, loc));
    assert_eq!(custom(&s.ctx, &s.ir, div), " %0, %1 : i32");
    let cmp = s.add(arith::cmpi_state(&s.ctx, &s.ir, CmpPredicate::Slt, a, b, loc));
    assert_eq!(custom(&s.ctx, &s.ir, cmp), " slt, %0, %1 : i32");
    let c = s.ir.result(cmp, 0);
    let sel = s.add(arith::select_state(&s.ctx, &s.ir, c, a, b, loc));
    assert_eq!(custom(&s.ctx, &s.ir, sel), " %0, %1, %2 : i32");
    let cast = s.add(arith::index_cast_state(&s.ctx, a, idx, loc));
    assert_eq!(custom(&s.ctx, &s.ir, cast), " %0 : i32 to index");
    let k = s.add(arith::constant_state(&s.ctx, s.ctx.int_attr(i32t, 42), loc).unwrap());
    assert_eq!(custom(&s.ctx, &s.ir, k), " 42 : i32");
    let t = s.add(arith::constant_state(&s.ctx, s.ctx.bool_attr(true), loc).unwrap());
    assert_eq!(custom(&s.ctx, &s.ir, t), " true");
}

#[test]
fn func_forms() {
    let mut s = setup();
    let (i32t, i64t) = (s.ctx.integer_type(32), s.ctx.integer_type(64));
    let loc = s.ctx.unknown_loc();
    let (state, _) = func::func_state(&s.ctx, &mut s.ir, "f", vec![i32t, i64t], vec![i32t], true, loc);
    let f = s.add(state);
    assert_eq!(custom(&s.ctx, &s.ir, f), " @f(%0: i32, %1: i64) -> i32 {...}");
    let (state, _) = func::func_state(&s.ctx, &mut s.ir, "decl", vec![i32t], vec![i32t, i64t], false, loc);
    let d = s.add(state);
    let arg_attrs = s.ctx.array_attr(vec![s.ctx.dictionary(vec![(s.ctx.ident("test.a"), s.ctx.unit_attr())])]);
    let props = s.ir.props(d).unwrap();
    let props = s.ctx.dict_set(props, "sym_visibility", Some(s.ctx.string_attr("private")));
    let props = s.ctx.dict_set(props, "arg_attrs", Some(arg_attrs));
    s.ir.set_props(d, Some(props));
    assert_eq!(custom(&s.ctx, &s.ir, d), " private @decl(i32 {test.a}) -> (i32, i64)");
    let a = s.ir.add_block_arg(s.block, i32t, None);
    let call = s.add(func::call_state(&s.ctx, "decl", &[a], vec![i32t, i64t], loc));
    assert_eq!(custom(&s.ctx, &s.ir, call), " @decl(%0) : (i32) -> (i32, i64)");
    let ret = s.add(func::return_state(&s.ctx, &[a, a], loc));
    assert_eq!(custom(&s.ctx, &s.ir, ret), " %0, %0 : i32, i32");
    let empty_ret = s.add(func::return_state(&s.ctx, &[], loc));
    assert_eq!(custom(&s.ctx, &s.ir, empty_ret), "");
}

#[test]
fn module_forms() {
    let mut s = setup();
    let loc = s.ctx.unknown_loc();
    let state = builtin::module_state(&s.ctx, &mut s.ir, Some("m"), loc);
    let m = s.add(state);
    s.ir.set_attrs(m, s.ctx.dictionary(vec![(s.ctx.ident("test.flag"), s.ctx.unit_attr())]));
    assert_eq!(custom(&s.ctx, &s.ir, m), " @m attributes {test.flag} {...}");
    let state = builtin::module_state(&s.ctx, &mut s.ir, None, loc);
    let anon = s.add(state);
    assert_eq!(custom(&s.ctx, &s.ir, anon), " {...}");
}
