//! `dce`: dead code elimination (fuser's own pass; mlir-opt-19 has no pass of this name: its
//! nearest relatives are the region simplification inside `canonicalize` and
//! `--remove-dead-values`).
//!
//! Semantics, for every region nested in the root op (not the root itself):
//! 1. blocks unreachable from their region's entry block (following the successors of each
//!    block's last op) are erased, in every region at any depth;
//! 2. ops are erased unless *live*: an op is live if it might have side effects (unregistered,
//!    or registered without the `Pure` trait), is a terminator or a symbol, or if one of its
//!    results is used by a live op. This is a fixpoint, so chains and cycles of unused pure ops
//!    (possible in graph regions) go away entirely; an erased op takes its regions with it.
//!
//! Block arguments are kept (removing one would need the branch operands that feed it).

use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::rewrite::simplify::{erase_unreachable_blocks, region_dce};

/// Options of `dce` (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DceOptions {}

/// Runs DCE on everything nested in `root`; returns whether the IR changed.
pub fn run_dce(ctx: &Context, ir: &mut Ir, root: OpId, _opts: &DceOptions) -> bool {
    let regions = ir.regions(root).to_vec();
    let blocks = erase_unreachable_blocks(ir, &regions);
    let ops = region_dce(ctx, ir, &regions);
    blocks | ops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::T;

    #[test]
    fn erases_dead_pure_chains_and_keeps_side_effects() {
        let mut t = T::new();
        let (f, b) = t.root();
        let x = t.val(b, "u.src", &[]);
        let a = t.val(b, "p.add", &[x, x]);
        let a2 = t.val(b, "p.add", &[a, a]);
        t.val(b, "p.add", &[a2, x]);
        let kept = t.val(b, "p.add", &[x, x]);
        t.op(b, "u.sink", &[kept], 0);
        assert!(run_dce(&t.ctx, &mut t.ir, f, &DceOptions::default()));
        assert_eq!(t.dump(b), ["u.src", "p.add %0 %0", "u.sink %1"]);
        assert!(!run_dce(&t.ctx, &mut t.ir, f, &DceOptions::default()));
    }

    #[test]
    fn erases_unreachable_blocks() {
        let mut t = T::new();
        let (f, r, bs) = t.root_with_blocks(3);
        t.br(bs[0], &[bs[2]]);
        let x = t.val(bs[1], "u.src", &[]);
        t.op(bs[1], "u.sink", &[x], 0);
        t.br(bs[1], &[bs[2]]);
        t.op(bs[2], "p.ret", &[], 0);
        assert!(run_dce(&t.ctx, &mut t.ir, f, &DceOptions::default()));
        assert_eq!(t.ir.region_blocks(r), &[bs[0], bs[2]]);
    }
}
