//! Collects the diagnostics of `comm-verify`, keeping the output readable: a rank-generic bug
//! usually shows up once per rank and iteration, so at most [`MAX_PER_SITE`] errors are kept
//! per (op, category); the last one kept says how many more were left out.
//!
//! Invariant: the kept diagnostics appear in the order they were reported.

use fuser_ir::diag::{Diagnostic, Severity};
use fuser_ir::ir::OpId;
use rustc_hash::FxHashMap;

/// The most diagnostics kept for one op and one category of problem.
pub const MAX_PER_SITE: usize = 3;

#[derive(Default)]
pub struct Reporter {
    diags: Vec<Diagnostic>,
    /// Per (op, category): how many were reported and the index of the last one kept.
    seen: FxHashMap<(OpId, &'static str), (usize, usize)>,
}

impl Reporter {
    /// Reports `d`, a problem of `category` at `op`.
    pub fn report(&mut self, op: OpId, category: &'static str, d: Diagnostic) {
        let slot = self.seen.entry((op, category)).or_insert((0, usize::MAX));
        slot.0 += 1;
        if slot.0 <= MAX_PER_SITE {
            self.diags.push(d);
            slot.1 = self.diags.len() - 1;
        }
    }

    pub fn has_errors(&self) -> bool {
        !self.diags.is_empty()
    }

    /// The kept diagnostics, each capped series ending with a note on what was left out.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        let mut capped: Vec<(usize, usize)> =
            self.seen.values().filter(|(n, _)| *n > MAX_PER_SITE).map(|&(n, last)| (last, n - MAX_PER_SITE)).collect();
        capped.sort_unstable();
        for (last, more) in capped {
            let d = &mut self.diags[last];
            let loc = d.loc;
            d.notes.push(Diagnostic::new(
                Severity::Note,
                loc,
                format!("{more} more similar problems at this op not shown"),
            ));
        }
        self.diags
    }
}
