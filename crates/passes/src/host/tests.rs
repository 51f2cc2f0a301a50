//! Unit tests of the host passes' internals on parsed host programs: the structural helpers of
//! `build`, the change reporting of each pass (what `--print-ir-after-change` relies on), and
//! that every rewritten program still verifies.

use super::assign_streams::assign_streams;
use super::build::*;
use super::hoist_alloc::hoist_allocs;
use super::insert_dealloc::insert_deallocs;
use super::licm::hoist_invariants;
use fuser_ir::Context;
use fuser_ir::diag::SourceFile;
use fuser_ir::ir::{Ir, OpId, WalkOrder};
use fuser_ir::parser::parse_source;
use fuser_ir::printer::{PrintOptions, print_module};
use std::sync::Arc;

struct Program {
    ctx: Context,
    ir: Ir,
    module: OpId,
}

impl Program {
    fn parse(text: &str) -> Program {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let module =
            parse_source(&ctx, &mut ir, &SourceFile::new("t.mlir", Arc::from(text))).expect("test input parses");
        Program { ctx, ir, module }
    }
    fn func(&self) -> OpId {
        self.ops_named("func.func")[0]
    }
    fn ops_named(&self, name: &str) -> Vec<OpId> {
        self.ir
            .collect_ops(self.module, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| is(&self.ctx, &self.ir, o, name))
            .collect()
    }
    fn verify(&self) {
        if let Err(d) = fuser_ir::verifier::verify(&self.ctx, &self.ir, self.module) {
            panic!("{}\n{}", d[0].message, self.print());
        }
    }
    fn print(&self) -> String {
        print_module(&self.ctx, &self.ir, self.module, &PrintOptions::default())
    }
}

const NESTED: &str = r#"
func.func @f(%a: !host.buf<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  host.for %i = %c0 to %n step %c1 {
    host.for %j = %c0 to %n step %c1 {
      %x = arith.addi %i, %j : index
      %y = arith.muli %i, %n : index
      %t = host.alloc() : !host.buf<4xf32>
      host.copy %a, %t : !host.buf<4xf32>, !host.buf<4xf32>
    }
  }
  return
}
"#;

#[test]
fn defined_outside_and_ancestor_in_block_follow_nesting() {
    let p = Program::parse(NESTED);
    let (ctx, ir) = (&p.ctx, &p.ir);
    let loops = p.ops_named("host.for");
    let (outer, inner) = (loops[0], loops[1]);
    let add = p.ops_named("arith.addi")[0];
    let (i, j) = (ir.operand(add, 0), ir.operand(add, 1));
    assert!(!defined_outside(ir, i, outer) && defined_outside(ir, i, inner));
    assert!(!defined_outside(ir, j, inner) && !defined_outside(ir, j, outer));
    let n = ir.operand(outer, 1);
    assert!(defined_outside(ir, n, outer) && defined_outside(ir, n, inner));
    let func_body = body_block(ir, p.func()).unwrap();
    assert_eq!(ancestor_in_block(ir, func_body, add), Some(outer));
    assert_eq!(ancestor_in_block(ir, body_block(ir, outer).unwrap(), add), Some(inner));
    assert_eq!(loops_innermost_first(ctx, ir, p.func()), vec![inner, outer]);
    assert!(!has_stream_ops(ctx, ir, outer) && !switches_streams(ctx, ir, outer));
}

#[test]
fn constant_int_reads_index_constants_only() {
    let p = Program::parse(NESTED);
    let lp = p.ops_named("host.for")[0];
    assert_eq!(constant_int(&p.ctx, &p.ir, p.ir.operand(lp, 0)), Some(0));
    assert_eq!(constant_int(&p.ctx, &p.ir, p.ir.operand(lp, 2)), Some(1));
    assert_eq!(constant_int(&p.ctx, &p.ir, p.ir.operand(lp, 1)), None);
}

#[test]
fn passes_report_changes_and_keep_programs_valid() {
    let mut p = Program::parse(NESTED);
    let f = p.func();
    assert!(hoist_invariants(&p.ctx, &mut p.ir, f), "muli climbs out of the inner loop");
    assert!(!hoist_invariants(&p.ctx, &mut p.ir, f), "a second run finds nothing");
    assert!(hoist_allocs(&p.ctx, &mut p.ir, f));
    assert!(!hoist_allocs(&p.ctx, &mut p.ir, f));
    assert!(insert_deallocs(&p.ctx, &mut p.ir, f));
    assert!(!insert_deallocs(&p.ctx, &mut p.ir, f), "freed buffers are not freed twice");
    assert!(assign_streams(&p.ctx, &mut p.ir, f, 3));
    assert!(!assign_streams(&p.ctx, &mut p.ir, f, 3), "rewritten and join loops are left alone");
    p.verify();
    // The hoisted buffer is freed once the main stream has joined the workers.
    let text = p.print();
    let join_end = text.rfind("host.stream_wait").unwrap();
    let dealloc = text.find("host.dealloc").unwrap();
    assert!(dealloc > join_end, "{text}");
    assert_eq!(p.ops_named("host.for").len(), 3, "{text}");
}

#[test]
fn dealloc_after_unrestored_stream_loop_stays_after_the_loop() {
    // No `host.set_stream` follows the loop: the pass cannot find a join, and frees the buffer
    // right after its last use (the documented fallback).
    let mut p = Program::parse(
        r#"
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = host.alloc() : !host.buf<4xf32>
  host.for %i = %c0 to %n step %c1 {
    %s = host.get_stream %i : !host.stream
    host.set_stream %s
    host.copy %t, %t : !host.buf<4xf32>, !host.buf<4xf32>
  }
  return
}
"#,
    );
    let f = p.func();
    assert!(insert_deallocs(&p.ctx, &mut p.ir, f));
    p.verify();
    let lp = p.ops_named("host.for")[0];
    let next = p.ir.next_op(lp).unwrap();
    assert!(is(&p.ctx, &p.ir, next, DEALLOC), "{}", p.print());
}

#[test]
fn empty_function_and_loop_free_function_are_unchanged() {
    let mut p = Program::parse("func.func @f() {\n  return\n}\n");
    let f = p.func();
    assert!(!assign_streams(&p.ctx, &mut p.ir, f, 4));
    assert!(!insert_deallocs(&p.ctx, &mut p.ir, f));
    assert!(!hoist_allocs(&p.ctx, &mut p.ir, f));
    assert!(!hoist_invariants(&p.ctx, &mut p.ir, f));
    let mut q = Program::parse("func.func private @decl()\n");
    let g = q.func();
    assert!(!assign_streams(&q.ctx, &mut q.ir, g, 4));
    assert!(!insert_deallocs(&q.ctx, &mut q.ir, g));
}
