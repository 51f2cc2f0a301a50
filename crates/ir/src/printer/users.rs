//! The comments of `--mlir-print-value-users`, as [`Printer`] methods.
//!
//! Rules (all observed on mlir-opt-19):
//! - after an op (and its trailing location): ` // id: %N` when it has no results but has
//!   operands (`%N` is its op id, see `names.rs`); ` // unused` when no result has a use;
//!   otherwise ` // user: ` when it has one result used by exactly one op that has at most one
//!   result, else ` // users: `, followed by each result's users (in parentheses per result
//!   when there are several results, `(unused)` for an unused one);
//! - a value's users are listed in use-list order (most recent use first), each user op once,
//!   as all its results (`%6#0, %6#1`) or, without results, its op id;
//! - each block argument gets a line `// %arg0 is used by %3, %1` or `// %arg1 is unused` at
//!   the indentation of the block's ops, after the block label (also when the label is not
//!   printed, e.g. a function's entry block).
//!
//! Layer: adds `Printer` methods, above `state.rs` and `names.rs`.

use super::state::Printer;
use crate::ir::{BlockId, OpId, Value};
use rustc_hash::FxHashSet;

impl Printer<'_> {
    /// The comment after `op` (nothing for an op without results and operands).
    pub(crate) fn print_users_comment(&mut self, op: OpId) {
        let ir = self.ir;
        let results = ir.results(op);
        if results.is_empty() {
            if ir.num_operands(op) != 0 {
                self.push(" // id: ");
                self.names.push_op_id(&mut self.out, op);
            }
            return;
        }
        if ir.results_unused(op) {
            self.push(" // unused");
            return;
        }
        let mut users: FxHashSet<OpId> = FxHashSet::default();
        let mut used_in_results = 0;
        for &r in results {
            for u in ir.uses(r) {
                if users.insert(u.op) {
                    used_in_results += ir.num_results(u.op);
                }
            }
        }
        let single = used_in_results <= 1 && users.len() <= 1 && results.len() == 1;
        self.push(if single { " // user: " } else { " // users: " });
        let brackets = results.len() > 1;
        for (i, &r) in results.iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            if brackets {
                self.push_char('(');
            }
            self.print_value_users(r);
            if brackets {
                self.push_char(')');
            }
        }
    }

    /// One `// %x is used by ...` line per argument of `b` (the caller has indented the
    /// block's ops already: `self.indent` is theirs).
    pub(crate) fn print_block_arg_users(&mut self, b: BlockId) {
        let ir = self.ir;
        for &arg in ir.block_args(b) {
            self.push_indent();
            self.push("// ");
            self.names.push_value(ir, &mut self.out, arg, true);
            if ir.has_uses(arg) {
                self.push(" is used by ");
                self.print_value_users(arg);
            } else {
                self.push(" is unused");
            }
            self.push_char('\n');
        }
    }

    /// The users of `v`, each op once, in use-list order; `unused` without users.
    fn print_value_users(&mut self, v: Value) {
        let ir = self.ir;
        if !ir.has_uses(v) {
            self.push("unused");
            return;
        }
        let mut seen: FxHashSet<OpId> = FxHashSet::default();
        for u in ir.uses(v) {
            if !seen.is_empty() && seen.contains(&u.op) {
                continue;
            }
            if !seen.is_empty() {
                self.push(", ");
            }
            seen.insert(u.op);
            let results = ir.results(u.op);
            if results.is_empty() {
                self.names.push_op_id(&mut self.out, u.op);
                continue;
            }
            for (i, &r) in results.iter().enumerate() {
                if i > 0 {
                    self.push(", ");
                }
                self.names.push_value(ir, &mut self.out, r, true);
            }
        }
    }
}
