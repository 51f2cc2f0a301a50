//! Unit tests: IR built by hand, printed, compared with what mlir-opt-19 prints for the same
//! input (expected strings were produced with mlir-opt-19).

use super::*;
use crate::apint::ApInt;
use crate::asm::OpAsmPrinter;
use crate::attrs::{AttrKind, DenseArrayData, DenseData};
use crate::ir::{BlockId, OperationState, RegionId, Value};
use crate::registry::{DialectDef, OpDef, Registry, Traits};
use crate::types::{DYNAMIC, FloatKind, Signedness, TypeKind};

/// A tiny IR builder for tests.
struct B {
    ctx: Context,
    ir: Ir,
    line: u32,
}

impl B {
    fn new() -> B {
        B::with_registry(Registry::new())
    }

    fn with_registry(r: Registry) -> B {
        let ctx = Context::new(r);
        ctx.set_allow_unregistered(true);
        B { ctx, ir: Ir::new(), line: 0 }
    }

    fn next_loc(&mut self) -> Attr {
        self.line += 1;
        self.ctx.file_loc("t.mlir", self.line, 1)
    }

    fn i(&self, w: u32) -> Type {
        self.ctx.integer_type(w)
    }

    fn op_full(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        attrs: &[(&str, Attr)],
        regions: Vec<RegionId>,
        successors: Vec<BlockId>,
    ) -> OpId {
        let attrs = self.dict(attrs);
        let loc = self.next_loc();
        self.ir.create_op(OperationState {
            name: self.ctx.op_name(name),
            operands: operands.to_vec(),
            result_types: results.to_vec(),
            successors,
            regions,
            attrs,
            props: None,
            loc,
        })
    }

    fn op(&mut self, name: &str, operands: &[Value], results: &[Type]) -> OpId {
        self.op_full(name, operands, results, &[], vec![], vec![])
    }

    fn dict(&self, entries: &[(&str, Attr)]) -> Attr {
        self.ctx.dictionary(entries.iter().map(|&(k, v)| (self.ctx.ident(k), v)).collect())
    }

    fn res(&self, op: OpId, i: usize) -> Value {
        self.ir.result(op, i)
    }

    /// A block with the given argument types holding `ops`.
    fn block(&mut self, args: &[Type], ops: &[OpId]) -> BlockId {
        let b = self.ir.create_block(args);
        for &op in ops {
            self.ir.append_op(b, op);
        }
        b
    }

    fn region(&mut self, blocks: &[BlockId]) -> RegionId {
        let r = self.ir.create_region();
        for &b in blocks {
            self.ir.append_block(r, b);
        }
        r
    }

    /// An (unregistered) `builtin.module` around `ops`.
    fn module(&mut self, ops: &[OpId]) -> OpId {
        let b = self.block(&[], ops);
        let r = self.region(&[b]);
        self.op_full("builtin.module", &[], &[], &[], vec![r], vec![])
    }

    fn print(&self, op: OpId, generic: bool) -> String {
        print_module(&self.ctx, &self.ir, op, &PrintOptions { generic, ..Default::default() })
    }

    fn print_attr_in_op(&mut self, attrs: &[(&str, Attr)]) -> String {
        let op = self.op_full("fz.a", &[], &[], attrs, vec![], vec![]);
        let m = self.module(&[op]);
        let text = self.print(m, true);
        text.lines().find(|l| l.contains("\"fz.a\"")).unwrap_or("").trim().to_string()
    }
}

#[test]
fn empty_module_generic_and_custom() {
    let mut b = B::new();
    let m = b.module(&[]);
    assert_eq!(b.print(m, true), "\"builtin.module\"() ({\n^bb0:\n}) : () -> ()\n\n");
    assert_eq!(b.print(m, false), "module {\n}\n\n");
}

/// The IR of test/corpus/value_numbering.mlir.
fn value_numbering_ir(b: &mut B) -> OpId {
    let (i32t, i1t, idx, f32t) = (b.i(32), b.i(1), b.ctx.index_type(), b.ctx.float_type(FloatKind::F32));
    let top0 = b.op("fz.src", &[], &[i32t]);
    // fz.r1
    let blk = b.ir.create_block(&[i32t]);
    let x = b.ir.block_args(blk)[0];
    let a = b.op("fz.x", &[x], &[i32t]);
    b.ir.append_op(blk, a);
    let r = b.region(&[blk]);
    let r1 = b.op_full("fz.r1", &[], &[], &[], vec![r], vec![]);
    // fz.r2
    let blk = b.ir.create_block(&[i32t, i32t]);
    let y = b.ir.block_args(blk)[0];
    let bop = b.op("fz.x", &[y], &[i32t]);
    let inner1 = b.ir.create_block(&[idx]);
    let c = b.op("fz.x", &[b.res(top0, 0)], &[i32t]);
    b.ir.append_op(inner1, c);
    let ir1 = b.region(&[inner1]);
    let d = b.op("fz.x", &[b.res(bop, 0)], &[i32t]);
    let e0 = b.block(&[], &[d]);
    let e1 = b.ir.create_block(&[i32t]);
    let v = b.ir.block_args(e1)[0];
    let e = b.op("fz.x", &[v], &[i32t]);
    b.ir.append_op(e1, e);
    let ir2 = b.region(&[e0, e1]);
    let inner = b.op_full("fz.inner", &[], &[], &[], vec![ir1, ir2], vec![]);
    let f = b.op("fz.after", &[], &[i32t]);
    for op in [bop, inner, f] {
        b.ir.append_op(blk, op);
    }
    let r = b.region(&[blk]);
    let r2 = b.op_full("fz.r2", &[], &[], &[], vec![r], vec![]);
    let top1 = b.op("fz.src", &[], &[i32t]);
    // fz.r3
    let g = b.op("fz.x", &[b.res(top1, 0)], &[i32t]);
    let g0 = b.block(&[], &[g]);
    let rg = b.region(&[g0]);
    let hb = b.ir.create_block(&[f32t]);
    let h = b.op("fz.x", &[b.res(top0, 0)], &[i32t]);
    b.ir.append_op(hb, h);
    let rh = b.region(&[hb]);
    let r3 = b.op_full("fz.r3", &[], &[], &[], vec![rg, rh], vec![]);
    let top2 = b.op("fz.pair", &[], &[i32t, i32t]);
    let i3 = b.op("fz.x3", &[], &[i1t, i1t, i1t]);
    let ib = b.block(&[], &[i3]);
    let ri = b.region(&[ib]);
    let r4 = b.op_full("fz.r4", &[], &[], &[], vec![ri], vec![]);
    let top3 = b.op("fz.src", &[], &[i32t]);
    b.module(&[top0, r1, r2, top1, r3, top2, r4, top3])
}

#[test]
fn value_numbering_generic_is_unique() {
    let mut b = B::new();
    let m = value_numbering_ir(&mut b);
    let want = r#""builtin.module"() ({
  %0 = "fz.src"() : () -> i32
  "fz.r1"() ({
  ^bb0(%arg4: i32):
    %13 = "fz.x"(%arg4) : (i32) -> i32
  }) : () -> ()
  "fz.r2"() ({
  ^bb0(%arg1: i32, %arg2: i32):
    %7 = "fz.x"(%arg1) : (i32) -> i32
    "fz.inner"() ({
    ^bb0(%arg3: index):
      %12 = "fz.x"(%0) : (i32) -> i32
    }, {
      %9 = "fz.x"(%7) : (i32) -> i32
    ^bb1(%10: i32):  // no predecessors
      %11 = "fz.x"(%10) : (i32) -> i32
    }) : () -> ()
    %8 = "fz.after"() : () -> i32
  }) : () -> ()
  %1 = "fz.src"() : () -> i32
  "fz.r3"() ({
    %6 = "fz.x"(%1) : (i32) -> i32
  }, {
  ^bb0(%arg0: f32):
    %5 = "fz.x"(%0) : (i32) -> i32
  }) : () -> ()
  %2:2 = "fz.pair"() : () -> (i32, i32)
  "fz.r4"() ({
    %4:3 = "fz.x3"() : () -> (i1, i1, i1)
  }) : () -> ()
  %3 = "fz.src"() : () -> i32
}) : () -> ()

"#;
    assert_eq!(b.print(m, true), want);
}

#[test]
fn value_numbering_custom_restarts_siblings() {
    let mut b = B::new();
    let m = value_numbering_ir(&mut b);
    let want = r#"module {
  %0 = "fz.src"() : () -> i32
  "fz.r1"() ({
  ^bb0(%arg0: i32):
    %4 = "fz.x"(%arg0) : (i32) -> i32
  }) : () -> ()
  "fz.r2"() ({
  ^bb0(%arg0: i32, %arg1: i32):
    %4 = "fz.x"(%arg0) : (i32) -> i32
    "fz.inner"() ({
    ^bb0(%arg2: index):
      %6 = "fz.x"(%0) : (i32) -> i32
    }, {
      %6 = "fz.x"(%4) : (i32) -> i32
    ^bb1(%7: i32):  // no predecessors
      %8 = "fz.x"(%7) : (i32) -> i32
    }) : () -> ()
    %5 = "fz.after"() : () -> i32
  }) : () -> ()
  %1 = "fz.src"() : () -> i32
  "fz.r3"() ({
    %4 = "fz.x"(%1) : (i32) -> i32
  }, {
  ^bb0(%arg0: f32):
    %4 = "fz.x"(%0) : (i32) -> i32
  }) : () -> ()
  %2:2 = "fz.pair"() : () -> (i32, i32)
  "fz.r4"() ({
    %4:3 = "fz.x3"() : () -> (i1, i1, i1)
  }) : () -> ()
  %3 = "fz.src"() : () -> i32
}

"#;
    assert_eq!(b.print(m, false), want);
}

#[test]
fn debuginfo_location_aliases() {
    let mut b = B::new();
    let m = value_numbering_ir(&mut b);
    let opts = PrintOptions { generic: true, debug_info: true, ..Default::default() };
    // Checked against mlir-opt-19 (see `dump_for_mlir_opt_cross_check`). Block arguments have
    // no location here, so they print (and are aliased) as unknown, before the op.
    let want = r#"#loc3 = loc(unknown)
"builtin.module"() ({
  %0 = "fz.src"() : () -> i32 loc(#loc1)
  "fz.r1"() ({
  ^bb0(%arg4: i32 loc(unknown)):
    %13 = "fz.x"(%arg4) : (i32) -> i32 loc(#loc4)
  }) : () -> () loc(#loc2)
  "fz.r2"() ({
  ^bb0(%arg1: i32 loc(unknown), %arg2: i32 loc(unknown)):
    %7 = "fz.x"(%arg1) : (i32) -> i32 loc(#loc6)
    "fz.inner"() ({
    ^bb0(%arg3: index loc(unknown)):
      %12 = "fz.x"(%0) : (i32) -> i32 loc(#loc8)
    }, {
      %9 = "fz.x"(%7) : (i32) -> i32 loc(#loc9)
    ^bb1(%10: i32 loc(unknown)):  // no predecessors
      %11 = "fz.x"(%10) : (i32) -> i32 loc(#loc10)
    }) : () -> () loc(#loc7)
    %8 = "fz.after"() : () -> i32 loc(#loc11)
  }) : () -> () loc(#loc5)
  %1 = "fz.src"() : () -> i32 loc(#loc12)
  "fz.r3"() ({
    %6 = "fz.x"(%1) : (i32) -> i32 loc(#loc14)
  }, {
  ^bb0(%arg0: f32 loc(unknown)):
    %5 = "fz.x"(%0) : (i32) -> i32 loc(#loc15)
  }) : () -> () loc(#loc13)
  %2:2 = "fz.pair"() : () -> (i32, i32) loc(#loc16)
  "fz.r4"() ({
    %4:3 = "fz.x3"() : () -> (i1, i1, i1) loc(#loc18)
  }) : () -> () loc(#loc17)
  %3 = "fz.src"() : () -> i32 loc(#loc19)
}) : () -> () loc(#loc)
#loc = loc("t.mlir":19:1)
#loc1 = loc("t.mlir":1:1)
#loc2 = loc("t.mlir":3:1)
#loc4 = loc("t.mlir":2:1)
#loc5 = loc("t.mlir":10:1)
#loc6 = loc("t.mlir":4:1)
#loc7 = loc("t.mlir":8:1)
#loc8 = loc("t.mlir":5:1)
#loc9 = loc("t.mlir":6:1)
#loc10 = loc("t.mlir":7:1)
#loc11 = loc("t.mlir":9:1)
#loc12 = loc("t.mlir":11:1)
#loc13 = loc("t.mlir":14:1)
#loc14 = loc("t.mlir":12:1)
#loc15 = loc("t.mlir":13:1)
#loc16 = loc("t.mlir":15:1)
#loc17 = loc("t.mlir":17:1)
#loc18 = loc("t.mlir":16:1)
#loc19 = loc("t.mlir":18:1)

"#;
    assert_eq!(print_module(&b.ctx, &b.ir, m, &opts), want);
    let local = PrintOptions { generic: true, debug_info: true, local_scope: true, ..Default::default() };
    let text = print_module(&b.ctx, &b.ir, m, &local);
    assert!(text.ends_with("}) : () -> () loc(\"t.mlir\":19:1)\n"), "{text}");
    assert!(text.contains("    %13 = \"fz.x\"(%arg4) : (i32) -> i32 loc(\"t.mlir\":2:1)\n"), "{text}");
}

/// Ops with nested locations (named, call-site, fused with metadata, name around unknown).
fn nested_locs_ir(b: &mut B) -> OpId {
    let ctx = &b.ctx;
    let f12 = ctx.file_loc("f.mlir", 1, 2);
    let name = |n: &str, child: Option<Attr>| ctx.intern_attr(AttrKind::NameLoc { name: ctx.ident(n), child });
    let named = name("name", Some(f12));
    let inner = name("inner", Some(ctx.file_loc("f.mlir", 5, 6)));
    let outer = name("outer", Some(inner));
    let n_unknown = name("n", Some(ctx.unknown_loc()));
    let cs = ctx.intern_attr(AttrKind::CallSiteLoc { callee: name("a", None), caller: name("b", None) });
    let fused =
        ctx.intern_attr(AttrKind::FusedLoc { locs: vec![name("a", None), f12], metadata: Some(ctx.string_attr("x")) });
    let mut ops = Vec::new();
    for (i, loc) in [named, outer, n_unknown, cs, fused].into_iter().enumerate() {
        let op = b.op(&format!("fz.o{i}"), &[], &[]);
        b.ir.set_loc(op, loc);
        ops.push(op);
    }
    let m = b.module(&ops);
    b.ir.set_loc(m, b.ctx.file_loc("m.mlir", 0, 0));
    m
}

#[test]
fn nested_location_aliases_sort_by_depth() {
    let mut b = B::new();
    let m = nested_locs_ir(&mut b);
    let opts = PrintOptions { generic: true, debug_info: true, ..Default::default() };
    // Checked against mlir-opt-19: leaves first (visit order), then each deeper level.
    let want = r#""builtin.module"() ({
  "fz.o0"() : () -> () loc(#loc6)
  "fz.o1"() : () -> () loc(#loc10)
  "fz.o2"() : () -> () loc(#loc3)
  "fz.o3"() : () -> () loc(#loc8)
  "fz.o4"() : () -> () loc(#loc9)
}) : () -> () loc(#loc)
#loc = loc("m.mlir":0:0)
#loc1 = loc("f.mlir":1:2)
#loc2 = loc("f.mlir":5:6)
#loc3 = loc("n")
#loc4 = loc("a")
#loc5 = loc("b")
#loc6 = loc("name"(#loc1))
#loc7 = loc("inner"(#loc2))
#loc8 = loc(callsite(#loc4 at #loc5))
#loc9 = loc(fused<"x">[#loc4, #loc1])
#loc10 = loc("outer"(#loc7))

"#;
    assert_eq!(print_module(&b.ctx, &b.ir, m, &opts), want);
}

#[test]
fn results_successors_and_pred_comments() {
    let mut b = B::new();
    let (i1t, i32t) = (b.i(1), b.i(32));
    // ^bb0: %c, %v, cond_br -> ^bb1, ^bb2 ; ^bb1: br ^bb3(%v); ^bb2: %w, br ^bb3(%w);
    // ^bb3(%x): switch -> ^bb4, ^bb5, ^bb4 ; ^bb4: ret ; ^bb5: ret %x
    let one = [i32t];
    let bb: Vec<BlockId> = (0..6).map(|i| b.ir.create_block(if i == 3 { &one[..] } else { &[] })).collect();
    let c = b.op("fz.cond", &[], &[i1t]);
    let v = b.op("fz.val", &[], &[i32t]);
    let (cv, vv) = (b.res(c, 0), b.res(v, 0));
    let cbr = b.op_full("fz.cond_br", &[cv, vv], &[], &[], vec![], vec![bb[1], bb[2]]);
    for op in [c, v, cbr] {
        b.ir.append_op(bb[0], op);
    }
    let br1 = b.op_full("fz.br", &[vv], &[], &[], vec![], vec![bb[3]]);
    b.ir.append_op(bb[1], br1);
    let w = b.op("fz.other", &[], &[i32t]);
    let wv = b.res(w, 0);
    let br2 = b.op_full("fz.br", &[wv], &[], &[], vec![], vec![bb[3]]);
    b.ir.append_op(bb[2], w);
    b.ir.append_op(bb[2], br2);
    let x = b.ir.block_args(bb[3])[0];
    let sw = b.op_full("fz.switch", &[x], &[], &[], vec![], vec![bb[4], bb[5], bb[4]]);
    b.ir.append_op(bb[3], sw);
    let r0 = b.op("fz.ret", &[], &[]);
    b.ir.append_op(bb[4], r0);
    let r1 = b.op("fz.ret", &[x], &[]);
    b.ir.append_op(bb[5], r1);
    let r = b.region(&bb);
    let cfg = b.op_full("fz.cfg", &[], &[], &[], vec![r], vec![]);
    let two = b.op("fz.two", &[], &[i32t, i1t]);
    let use_ = b.op("fz.use", &[b.res(two, 1), b.res(two, 0)], &[]);
    let m = b.module(&[cfg, two, use_]);
    let want = r#""builtin.module"() ({
  "fz.cfg"() ({
    %1 = "fz.cond"() : () -> i1
    %2 = "fz.val"() : () -> i32
    "fz.cond_br"(%1, %2)[^bb1, ^bb2] : (i1, i32) -> ()
  ^bb1:  // pred: ^bb0
    "fz.br"(%2)[^bb3] : (i32) -> ()
  ^bb2:  // pred: ^bb0
    %3 = "fz.other"() : () -> i32
    "fz.br"(%3)[^bb3] : (i32) -> ()
  ^bb3(%4: i32):  // 2 preds: ^bb1, ^bb2
    "fz.switch"(%4)[^bb4, ^bb5, ^bb4] : (i32) -> ()
  ^bb4:  // 2 preds: ^bb3, ^bb3
    "fz.ret"() : () -> ()
  ^bb5:  // pred: ^bb3
    "fz.ret"(%4) : (i32) -> ()
  }) : () -> ()
  %0:2 = "fz.two"() : () -> (i32, i1)
  "fz.use"(%0#1, %0#0) : (i1, i32) -> ()
}) : () -> ()

"#;
    assert_eq!(b.print(m, true), want);
}

#[test]
fn regions_empty_and_with_empty_blocks() {
    let mut b = B::new();
    let r_none = b.region(&[]);
    let e = b.op_full("fz.empty", &[], &[], &[], vec![r_none], vec![]);
    let blk = b.block(&[], &[]);
    let r_blk = b.region(&[blk]);
    let eb = b.op_full("fz.empty_block", &[], &[], &[], vec![r_blk], vec![]);
    let argb = b.ir.create_block(&[b.ctx.i1_type()]);
    let r_arg = b.region(&[argb]);
    let ea = b.op_full("fz.empty_entry_arg", &[], &[], &[], vec![r_arg], vec![]);
    let m = b.module(&[e, eb, ea]);
    let want = "\"builtin.module\"() ({\n  \"fz.empty\"() ({\n  }) : () -> ()\n  \"fz.empty_block\"() ({\n  ^bb0:\n  }) : () -> ()\n  \"fz.empty_entry_arg\"() ({\n  ^bb0(%arg0: i1):\n  }) : () -> ()\n}) : () -> ()\n\n";
    assert_eq!(b.print(m, true), want);
}

#[test]
fn properties_generic_form() {
    let mut b = B::new();
    let p = b.dict(&[("p", b.ctx.int_attr(b.ctx.i64_type(), 3))]);
    let op = b.op_full("fz.p1", &[], &[], &[("q", b.ctx.unit_attr())], vec![], vec![]);
    b.ir.set_props(op, Some(p));
    let op2 = b.op("fz.p5", &[], &[]);
    b.ir.set_props(op2, Some(b.ctx.empty_dict()));
    let m = b.module(&[op, op2]);
    let text = b.print(m, true);
    assert!(text.contains("  \"fz.p1\"() <{p = 3 : i64}> {q} : () -> ()\n  \"fz.p5\"() <{}> : () -> ()\n"), "{text}");
}

#[test]
fn scalar_attributes() {
    let mut b = B::new();
    let ctx = &b.ctx;
    let i8t = ctx.integer_type(8);
    let ui8 = ctx.intern_type(TypeKind::Integer { width: 8, signedness: Signedness::Unsigned });
    let si1 = ctx.intern_type(TypeKind::Integer { width: 1, signedness: Signedness::Signed });
    let f64t = ctx.float_type(FloatKind::F64);
    let f32t = ctx.float_type(FloatKind::F32);
    let float = |ty: Type, v: f64| {
        let bits = if ty == f32t { (v as f32).to_bits() as u128 } else { v.to_bits() as u128 };
        ctx.intern_attr(AttrKind::Float { bits, ty })
    };
    let attrs = [
        ("a", ctx.int_attr(i8t, -1)),
        ("b", ctx.intern_attr(AttrKind::Integer { value: ApInt::from_i128(8, 200), ty: ui8 })),
        ("c", ctx.int_attr(ctx.i64_type(), 5)),
        ("d", ctx.int_attr(ctx.i1_type(), 1)),
        ("e", ctx.intern_attr(AttrKind::Integer { value: ApInt::from_i128(1, -1), ty: si1 })),
        ("f", float(f64t, 1.0)),
        ("g", float(f32t, 0.1)),
        (
            "h",
            ctx.array_attr(vec![
                ctx.int_attr(ctx.i64_type(), 4),
                float(f64t, 2.0),
                float(f64t, 1234567.0),
                ctx.int_attr(i8t, 3),
            ]),
        ),
        ("i", ctx.string_attr("say \"hi\"\n")),
        ("j", ctx.intern_attr(AttrKind::String { value: b"s".as_slice().into(), ty: Some(ctx.integer_type(32)) })),
        ("k", ctx.unit_attr()),
        ("l", ctx.intern_attr(AttrKind::SymbolRef { root: ctx.ident("a"), nested: vec![ctx.ident("b c")] })),
        ("m", ctx.type_attr(ctx.function_type(vec![ctx.integer_type(32)], vec![ctx.function_type(vec![], vec![])]))),
        ("n", ctx.intern_attr(AttrKind::Strided { strides: vec![DYNAMIC, 1], offset: 0 })),
        ("o", ctx.intern_attr(AttrKind::Strided { strides: vec![4], offset: DYNAMIC })),
        ("p", ctx.intern_attr(AttrKind::Opaque { dialect: "fz".into(), body: "abc".into(), pretty: true })),
        ("q", ctx.intern_attr(AttrKind::Opaque { dialect: "fz".into(), body: "\"x y\"".into(), pretty: false })),
        (
            "r",
            ctx.dictionary(vec![
                (ctx.ident("1a"), ctx.int_attr(ctx.i64_type(), 1)),
                (ctx.ident("flag"), ctx.unit_attr()),
            ]),
        ),
        (
            "s",
            ctx.intern_attr(AttrKind::DenseArray {
                elem: ctx.integer_type(32),
                data: DenseArrayData::Int(vec![-1, 0, 1]),
            }),
        ),
        (
            "t",
            ctx.intern_attr(AttrKind::DenseArray {
                elem: f64t,
                data: DenseArrayData::Float(vec![0.30000000000000004f64.to_bits(), 1234567f64.to_bits()]),
            }),
        ),
        ("u", ctx.intern_attr(AttrKind::DenseArray { elem: ctx.i1_type(), data: DenseArrayData::Int(vec![]) })),
        ("v", ctx.file_loc("x.mlir", 1, 2)),
    ];
    let line = b.print_attr_in_op(&attrs);
    assert_eq!(
        line,
        r#""fz.a"() {a = -1 : i8, b = 200 : ui8, c = 5 : i64, d = true, e = -1 : si1, f = 1.000000e+00 : f64, g = 1.000000e-01 : f32, h = [4, 2.000000e+00, 0x4132D68700000000 : f64, 3 : i8], i = "say \22hi\22\0A", j = "s" : i32, k, l = @a::@"b c", m = (i32) -> (() -> ()), n = strided<[?, 1]>, o = strided<[4], offset: ?>, p = #fz.abc, q = #fz<"x y">, r = {"1a" = 1 : i64, flag}, s = array<i32: -1, 0, 1>, t = array<f64: 0.30000000000000004, 0x4132D68700000000>, u = array<i1>, v = #loc} : () -> ()"#
    );
}

#[test]
fn types() {
    let b = B::new();
    let ctx = &b.ctx;
    let f32t = ctx.float_type(FloatKind::F32);
    let i8t = ctx.integer_type(8);
    let cases: Vec<(Type, &str)> = vec![
        (ctx.intern_type(TypeKind::Integer { width: 17, signedness: Signedness::Unsigned }), "ui17"),
        (ctx.tensor_type(vec![4, DYNAMIC], f32t, None), "tensor<4x?xf32>"),
        (ctx.tensor_type(vec![], f32t, None), "tensor<f32>"),
        (ctx.tensor_type(vec![2], i8t, Some(ctx.int_attr(ctx.i64_type(), 42))), "tensor<2xi8, 42 : i64>"),
        (ctx.intern_type(TypeKind::UnrankedTensor { elem: f32t }), "tensor<*xf32>"),
        (
            ctx.intern_type(TypeKind::Vector { shape: vec![4, 8], scalable: vec![false, true], elem: f32t }),
            "vector<4x[8]xf32>",
        ),
        (
            ctx.intern_type(TypeKind::MemRef {
                shape: vec![4, 4],
                elem: f32t,
                layout: Some(ctx.intern_attr(AttrKind::AffineMap("(d0, d1) -> (d0, d1)".into(), None))),
                memory_space: Some(ctx.int_attr(ctx.i64_type(), 5)),
            }),
            "memref<4x4xf32, 5>",
        ),
        (
            ctx.intern_type(TypeKind::MemRef {
                shape: vec![4],
                elem: f32t,
                layout: Some(ctx.intern_attr(AttrKind::Strided { strides: vec![1], offset: 0 })),
                memory_space: Some(ctx.int_attr(ctx.integer_type(32), 0)),
            }),
            "memref<4xf32, strided<[1]>>",
        ),
        (
            ctx.intern_type(TypeKind::UnrankedMemRef {
                elem: f32t,
                memory_space: Some(ctx.int_attr(ctx.integer_type(32), 7)),
            }),
            "memref<*xf32, 7 : i32>",
        ),
        (ctx.intern_type(TypeKind::Complex(f32t)), "complex<f32>"),
        (ctx.intern_type(TypeKind::Tuple(vec![])), "tuple<>"),
        (ctx.function_type(vec![], vec![]), "() -> ()"),
        (ctx.function_type(vec![i8t], vec![i8t, f32t]), "(i8) -> (i8, f32)"),
        (ctx.intern_type(TypeKind::Opaque { dialect: "fz".into(), body: "abc".into(), pretty: true }), "!fz.abc"),
        (ctx.intern_type(TypeKind::Opaque { dialect: "fz".into(), body: "\"\"".into(), pretty: false }), "!fz<\"\">"),
    ];
    for (t, want) in cases {
        assert_eq!(print_type(ctx, t), want);
    }
}

fn dense(ctx: &Context, ty: Type, data: DenseData) -> Attr {
    ctx.intern_attr(AttrKind::DenseElements { ty, data })
}

#[test]
fn dense_elements() {
    let b = B::new();
    let ctx = &b.ctx;
    let i32t = ctx.integer_type(32);
    let i8t = ctx.integer_type(8);
    let ints = |ty: Type, vs: &[i64]| DenseData::Elements(vs.iter().map(|&v| ctx.int_attr(ty, v)).collect());
    let t = |shape: Vec<i64>, e: Type| ctx.tensor_type(shape, e, None);
    assert_eq!(
        print_attr(ctx, dense(ctx, t(vec![2, 2], i8t), ints(i8t, &[1, 2, 3, -1]))),
        "dense<[[1, 2], [3, -1]]> : tensor<2x2xi8>"
    );
    assert_eq!(print_attr(ctx, dense(ctx, t(vec![3], i32t), ints(i32t, &[5, 5, 5]))), "dense<5> : tensor<3xi32>");
    assert_eq!(print_attr(ctx, dense(ctx, t(vec![0], i32t), ints(i32t, &[]))), "dense<> : tensor<0xi32>");
    assert_eq!(
        print_attr(ctx, dense(ctx, t(vec![0], i32t), DenseData::Splat(ctx.int_attr(i32t, 5)))),
        "dense<5> : tensor<0xi32>"
    );
    assert_eq!(
        print_attr(ctx, dense(ctx, t(vec![4], i32t), DenseData::Hex("0x01000000020000000300000004000000".into()))),
        "dense<[1, 2, 3, 4]> : tensor<4xi32>"
    );
    assert_eq!(
        print_attr(ctx, dense(ctx, t(vec![4], i32t), DenseData::Hex("0x0A000000".into()))),
        "dense<10> : tensor<4xi32>"
    );
    let i1 = ctx.i1_type();
    let bools: Vec<Attr> = (0..101).map(|i| ctx.bool_attr(i % 3 == 0)).collect();
    assert_eq!(
        print_attr(ctx, dense(ctx, t(vec![101], i1), DenseData::Elements(bools))),
        "dense<\"0x49922449922449922449922409\"> : tensor<101xi1>"
    );
    let f32t = ctx.float_type(FloatKind::F32);
    let cf = ctx.intern_type(TypeKind::Complex(f32t));
    let fl = |v: f32| ctx.intern_attr(AttrKind::Float { bits: v.to_bits() as u128, ty: f32t });
    let cplx = |a: f32, b: f32| ctx.array_attr(vec![fl(a), fl(b)]);
    assert_eq!(
        print_attr(ctx, dense(ctx, t(vec![2], cf), DenseData::Elements(vec![cplx(1.0, 0.0), cplx(0.5, -0.5)]))),
        "dense<[(1.000000e+00,0.000000e+00), (5.000000e-01,-5.000000e-01)]> : tensor<2xcomplex<f32>>"
    );
    let big: Vec<i64> = (0..101).collect();
    let text = print_attr(ctx, dense(ctx, t(vec![101], i32t), ints(i32t, &big)));
    assert!(text.starts_with("dense<\"0x00000000010000000200000003000000"), "{text}");
    let strs = ctx.intern_type(TypeKind::Opaque { dialect: "fz".into(), body: "str".into(), pretty: true });
    assert_eq!(
        print_attr(
            ctx,
            dense(ctx, t(vec![2], strs), DenseData::Elements(vec![ctx.string_attr("a"), ctx.string_attr("bc")]))
        ),
        "dense<[\"a\", \"bc\"]> : tensor<2x!fz.str>"
    );
}

#[test]
fn affine_map_and_tuple_aliases() {
    let mut b = B::new();
    let ctx = &b.ctx;
    let map = |s: &str| ctx.intern_attr(AttrKind::AffineMap(s.into(), None));
    let m1 = map("(d0) -> (d0 + 7)");
    let m2 = map("(d0) -> (d0 + 1)");
    let m3 = map("(d0) -> (d0 + 2)");
    let set = ctx.intern_attr(AttrKind::IntegerSet("(d0) : (d0 >= 0)".into(), None));
    let i1 = ctx.i1_type();
    let t17 = ctx.intern_type(TypeKind::Tuple(vec![i1; 17]));
    let t16 = ctx.intern_type(TypeKind::Tuple(vec![i1; 16]));
    let nested = ctx.intern_type(TypeKind::Tuple([vec![i1; 16], vec![t17]].concat()));
    let loc_attr = ctx.file_loc("x.mlir", 1, 1);
    let (s_, l_) = (set, loc_attr);
    let a = b.op_full("fz.a", &[], &[], &[("s", s_), ("m", m1), ("l", l_)], vec![], vec![]);
    let pb = b.dict(&[("p", m2)]);
    let bop = b.op_full("fz.b", &[], &[], &[("a", m3)], vec![], vec![]);
    b.ir.set_props(bop, Some(pb));
    let c = b.op("fz.c", &[], &[nested, t16]);
    let m = b.module(&[a, bop, c]);
    let want = r#"!tuple = tuple<i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1>
#loc = loc("x.mlir":1:1)
#map = affine_map<(d0) -> (d0 + 7)>
#map1 = affine_map<(d0) -> (d0 + 2)>
#set = affine_set<(d0) : (d0 >= 0)>
!tuple1 = tuple<i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, !tuple>
"builtin.module"() ({
  "fz.a"() {l = #loc, m = #map, s = #set} : () -> ()
  "fz.b"() <{p = affine_map<(d0) -> (d0 + 1)>}> {a = #map1} : () -> ()
  %0:2 = "fz.c"() : () -> (!tuple1, tuple<i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1>)
}) : () -> ()

"#;
    assert_eq!(b.print(m, true), want);
    let local = PrintOptions { generic: true, local_scope: true, ..Default::default() };
    let text = print_module(&b.ctx, &b.ir, m, &local);
    assert!(text.starts_with("\"builtin.module\"() ({\n  \"fz.a\"() {l = loc(\"x.mlir\":1:1), m = affine_map<(d0) -> (d0 + 7)>, s = affine_set<(d0) : (d0 >= 0)>}"), "{text}");
}

// ----- a registered test dialect with custom printers -----------------------------------------

fn print_const(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (value, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ctx.dict_get(ir.attrs(op), "value"), ir.attrs(op))
    };
    p.print_optional_attr_dict(dict, &["value"]);
    if let Some(v) = value {
        p.write(" ");
        p.print_attribute(v);
    }
}

fn const_names(ctx: &Context, ir: &Ir, op: OpId, f: &mut dyn FnMut(Value, String)) {
    if let Some(v) = ctx.dict_get(ir.attrs(op), "value").and_then(|a| ctx.attr_i64(a)) {
        f(ir.result(op, 0), format!("c{v}"));
    }
}

fn print_func(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (name, region, args) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let name = ctx.dict_get(ir.attrs(op), "sym_name").and_then(|a| ctx.attr_str(a)).unwrap_or("").to_string();
        let r = ir.region(op, 0);
        let args = ir.region_entry(r).map(|b| ir.block_args(b).to_vec()).unwrap_or_default();
        (name, r, args)
    };
    p.write(" ");
    p.print_symbol_name(&name);
    p.write("(");
    for (i, &a) in args.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_region_argument(a, None);
    }
    p.write(") ");
    p.print_region(region, false, true);
}

fn print_ret(p: &mut dyn OpAsmPrinter, op: OpId) {
    let operands = p.ir().operands(op);
    if !operands.is_empty() {
        p.write(" ");
        p.print_operands(&operands);
        p.write(" : ");
        let tys: Vec<Type> = operands.iter().map(|&v| p.ir().value_type(v)).collect();
        for (i, t) in tys.into_iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.print_type(t);
        }
    }
}

static T_CONST: OpDef =
    OpDef { print: Some(print_const), result_names: Some(const_names), ..OpDef::new("tst.const", Traits::PURE) };
static T_FUNC: OpDef = OpDef {
    print: Some(print_func),
    default_dialect: Some("tst"),
    ..OpDef::new("tst.func", Traits::ISOLATED_FROM_ABOVE)
};
static T_RET: OpDef = OpDef { print: Some(print_ret), ..OpDef::new("tst.ret", Traits::TERMINATOR) };
static T_ADD: OpDef = OpDef { properties: &["flags"], ..OpDef::new("tst.add", Traits::PURE) };
static TST: DialectDef = DialectDef {
    namespace: "tst",
    summary: "",
    description: "",
    ops: &[&T_CONST, &T_FUNC, &T_RET, &T_ADD],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};

fn tst_builder() -> B {
    let mut r = Registry::new();
    r.register(&TST);
    B::with_registry(r)
}

#[test]
fn custom_printers_names_and_default_dialect() {
    let mut b = tst_builder();
    let i32t = b.i(32);
    let c0 = b.op_full("tst.const", &[], &[i32t], &[("value", b.ctx.int_attr(i32t, 0))], vec![], vec![]);
    let c0b = b.op_full("tst.const", &[], &[i32t], &[("value", b.ctx.int_attr(i32t, 0))], vec![], vec![]);
    let c1 = b.op_full(
        "tst.const",
        &[],
        &[i32t],
        &[("value", b.ctx.int_attr(i32t, 1)), ("z.tag", b.ctx.unit_attr())],
        vec![],
        vec![],
    );
    let entry = b.ir.create_block(&[i32t]);
    let arg = b.ir.block_args(entry)[0];
    let flags = b.ctx.string_attr("none");
    let add = b.op_full("tst.add", &[b.res(c0, 0), arg], &[i32t], &[("flags", flags)], vec![], vec![]);
    let ret = b.op("tst.ret", &[b.res(add, 0), b.res(c0b, 0), b.res(c1, 0)], &[]);
    for op in [c0, c0b, c1, add, ret] {
        b.ir.append_op(entry, op);
    }
    let body = b.region(&[entry]);
    let f = b.op_full("tst.func", &[], &[], &[("sym_name", b.ctx.string_attr("f"))], vec![body], vec![]);
    let outer_ret = b.op("tst.ret", &[], &[]);
    let m = b.module(&[f, outer_ret]);
    let want = r#"module {
  tst.func @f(%arg0: i32) {
    %c0 = const 0 : i32
    %c0_0 = const 0 : i32
    %c1 = const {z.tag} 1 : i32
    %0 = "tst.add"(%c0, %arg0) <{flags = "none"}> : (i32, i32) -> i32
    ret %0, %c0_0, %c1 : i32, i32, i32
  }
  tst.ret
}

"#;
    assert_eq!(b.print(m, false), want);
    let want_generic = r#""builtin.module"() ({
  "tst.func"() ({
  ^bb0(%arg0: i32):
    %0 = "tst.const"() {value = 0 : i32} : () -> i32
    %1 = "tst.const"() {value = 0 : i32} : () -> i32
    %2 = "tst.const"() {value = 1 : i32, z.tag} : () -> i32
    %3 = "tst.add"(%0, %arg0) <{flags = "none"}> : (i32, i32) -> i32
    "tst.ret"(%3, %1, %2) : (i32, i32, i32) -> ()
  }) {sym_name = "f"} : () -> ()
  "tst.ret"() : () -> ()
}) : () -> ()

"#;
    assert_eq!(b.print(m, true), want_generic);
    // Diagnostics number from the enclosing isolated op (the function).
    assert_eq!(
        print_op_for_diagnostic(&b.ctx, &b.ir, add),
        r#"%3 = "tst.add"(%0, %arg0) <{flags = "none"}> : (i32, i32) -> i32"#
    );
    assert!(print_op_for_diagnostic(&b.ctx, &b.ir, f).starts_with("\"tst.func\"() ({\n^bb0(%arg0: i32):\n  %0 = "));
}

#[test]
fn nested_op_prints_alone_numbered_from_isolated_parent() {
    let mut b = tst_builder();
    let i32t = b.i(32);
    let top = b.op("fz.top", &[], &[i32t]);
    let entry = b.ir.create_block(&[i32t]);
    let arg = b.ir.block_args(entry)[0];
    let x = b.op("fz.x", &[arg], &[i32t]);
    let inner_blk = b.ir.create_block(&[i32t]);
    let inner_r = b.region(&[inner_blk]);
    let r = b.op_full("fz.r", &[], &[], &[], vec![inner_r], vec![]);
    let ret = b.op("tst.ret", &[b.res(x, 0)], &[]);
    for op in [x, r, ret] {
        b.ir.append_op(entry, op);
    }
    let body = b.region(&[entry]);
    let f = b.op_full("tst.func", &[], &[], &[("sym_name", b.ctx.string_attr("f"))], vec![body], vec![]);
    let _m = b.module(&[top, f]);
    // What mlir-opt prints for `--mlir-print-ir-after` on a function (local scope).
    let opts = PrintOptions { generic: true, local_scope: true, ..Default::default() };
    let want = "\"tst.func\"() ({\n^bb0(%arg0: i32):\n  %0 = \"fz.x\"(%arg0) : (i32) -> i32\n  \"fz.r\"() ({\n  ^bb0(%arg1: i32):\n  }) : () -> ()\n  \"tst.ret\"(%0) : (i32) -> ()\n}) {sym_name = \"f\"} : () -> ()\n";
    assert_eq!(print_module(&b.ctx, &b.ir, f, &opts), want);
    // Without local scope, numbers come from the whole module.
    let opts = PrintOptions { generic: true, ..Default::default() };
    assert!(print_module(&b.ctx, &b.ir, f, &opts).contains("%1 = \"fz.x\"(%arg0)"));
}

#[test]
fn diagnostic_elides_large_dense() {
    let mut b = B::new();
    let i32t = b.i(32);
    let big = DenseData::Elements((0..17).map(|v| b.ctx.int_attr(i32t, v)).collect());
    let ty = b.ctx.tensor_type(vec![17], i32t, None);
    let d = dense(&b.ctx, ty, big);
    let op = b.op_full("fz.x", &[], &[], &[("d", d)], vec![], vec![]);
    let _m = b.module(&[op]);
    assert_eq!(
        print_op_for_diagnostic(&b.ctx, &b.ir, op),
        "\"fz.x\"() {d = dense_resource<__elided__> : tensor<17xi32>} : () -> ()"
    );
}

#[test]
fn deep_nesting_does_not_crash() {
    let mut b = B::new();
    let mut inner = b.op("fz.leaf", &[], &[]);
    for _ in 0..200 {
        let blk = b.block(&[], &[inner]);
        let r = b.region(&[blk]);
        inner = b.op_full("fz.nest", &[], &[], &[], vec![r], vec![]);
    }
    let m = b.module(&[inner]);
    let text = b.print(m, true);
    assert!(text.contains(&format!("{}\"fz.leaf\"() : () -> ()", " ".repeat(2 * 201))));
}

/// Writes the trees of these tests to `$PRINTER_DUMP_DIR` (when set) in two forms:
/// `X.input.mlir` (generic, debug info, local scope: every location inline, readable by
/// mlir-opt) and `X.expected` (what we print with aliases), so that a script can check
/// `mlir-opt-19 --mlir-print-op-generic --mlir-print-debuginfo X.input.mlir` against it.
#[test]
fn dump_for_mlir_opt_cross_check() {
    let Ok(dir) = std::env::var("PRINTER_DUMP_DIR") else {
        return;
    };
    let mut cases: Vec<(&str, B, OpId)> = Vec::new();
    let mut b = B::new();
    let m = value_numbering_ir(&mut b);
    cases.push(("value_numbering", b, m));
    let mut b = B::new();
    let m = nested_locs_ir(&mut b);
    cases.push(("nested_locs", b, m));
    for (name, b, m) in &cases {
        let local = PrintOptions { generic: true, debug_info: true, local_scope: true, ..Default::default() };
        let full = PrintOptions { generic: true, debug_info: true, ..Default::default() };
        std::fs::write(format!("{dir}/{name}.input.mlir"), print_module(&b.ctx, &b.ir, *m, &local)).unwrap();
        std::fs::write(format!("{dir}/{name}.expected"), print_module(&b.ctx, &b.ir, *m, &full)).unwrap();
    }
}
