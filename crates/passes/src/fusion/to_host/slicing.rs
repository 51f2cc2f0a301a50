//! `fusion.slice` and `fusion.concat` as host copies through `host.slice` views
//! (docs/dev/ops.md, "slicing"): a slice copies the view of its window into its result; a
//! concat copies each operand into the view of its place in the result.
//!
//! The sliced axes of a slice and the concatenated axis of a concat carry no device or stream
//! split (the plan checks it: they are `whole` in the op's axes), so along them the local piece
//! is the global tensor and the op's static offsets apply as they are. Along every other axis
//! the view takes the whole local piece (or stream chunk) in order.

use super::emit::{Emitter, Site};
use crate::host::build::place;
use fuser_dialects::fusion::slicing::slice_cuts_axis;
use fuser_dialects::host::{Mixed, copy_state, slice_state};
use fuser_ir::ir::{OperationState, Value};

impl Emitter<'_> {
    /// A slice with global `offsets`, `sizes`, `strides` of a tensor of global shape `global`:
    /// the copy of the window of `input` (a local piece or chunk) into `out`.
    pub(super) fn emit_window_copy(
        &mut self,
        input: Value,
        out: Value,
        global: &[i64],
        window: (&[i64], &[i64], &[i64]),
        site: &Site,
    ) -> Result<OperationState, String> {
        let (offsets, sizes, strides) = window;
        let local = self.buffer_type(input)?.shape;
        let mut o = Vec::with_capacity(local.len());
        let mut n = Vec::with_capacity(local.len());
        let mut s = Vec::with_capacity(local.len());
        for a in 0..local.len() {
            if slice_cuts_axis(global[a], offsets[a], sizes[a], strides[a]) {
                if local[a] != global[a] {
                    return Err(format!(
                        "internal error: sliced axis {a} is split (local extent {}, global {})",
                        local[a], global[a]
                    ));
                }
                o.push(Mixed::Static(offsets[a]));
                n.push(Mixed::Static(sizes[a]));
                s.push(Mixed::Static(strides[a]));
            } else {
                o.push(Mixed::Static(0));
                n.push(Mixed::Static(local[a]));
                s.push(Mixed::Static(1));
            }
        }
        let view = slice_state(self.ctx, self.ir, input, &o, &n, &s, site.loc)?;
        let view = self.new_value(site.at, view);
        Ok(copy_state(self.ctx, view, out, site.loc))
    }

    /// A concat along `dim`: each input copied into its place in `out`; returns the last copy
    /// (the others are placed at `site`).
    pub(super) fn emit_concat_copies(
        &mut self,
        inputs: &[Value],
        out: Value,
        dim: usize,
        site: &Site,
    ) -> Result<OperationState, String> {
        let out_shape = self.buffer_type(out)?.shape;
        let mut at = 0i64;
        let mut last = None;
        for &x in inputs {
            let shape = self.buffer_type(x)?.shape;
            if shape.len() != out_shape.len() || dim >= shape.len() {
                return Err("internal error: concat operands and result differ in rank".into());
            }
            if let Some(prev) = last.take() {
                place(self.ir, site.at, prev);
            }
            let o: Vec<Mixed> = (0..shape.len()).map(|a| Mixed::Static(if a == dim { at } else { 0 })).collect();
            let n: Vec<Mixed> = shape.iter().map(|&e| Mixed::Static(e)).collect();
            let s = vec![Mixed::Static(1); shape.len()];
            let view = slice_state(self.ctx, self.ir, out, &o, &n, &s, site.loc)?;
            let view = self.new_value(site.at, view);
            last = Some(copy_state(self.ctx, x, view, site.loc));
            at += shape[dim];
        }
        if at != out_shape[dim] {
            return Err(format!("internal error: concat operands fill {at} of {} along axis {dim}", out_shape[dim]));
        }
        last.ok_or_else(|| "concat needs at least one operand".to_string())
    }
}
