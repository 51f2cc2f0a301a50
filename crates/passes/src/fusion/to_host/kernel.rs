//! Emission of the fusion ops that lower to a named `host.kernel` (docs/dev/ops.md): the
//! operands as the op reads them, every result's target, the op's properties as the kernel's
//! `params`, and, for position-dependent kernels, the global origin of one value's local piece.
//!
//! The origin of a value along an axis split `[s1, s2, ...]` (outermost first) of global
//! extent `E` is `sum_k coord_k * E / (n_1 * ... * n_k)`, where `n_k` is split k's count and
//! `coord_k` the rank's coordinate along it (`host.rank - first device` for a device split,
//! the loop index for the stream split this loop chunks). A value held whole while one of its
//! axes has a stream split outside a device split is not one block of the global tensor: such
//! a kernel is refused with a diagnostic.

use super::emit::{Emitter, Site};
use fuser_dialects::fusion::{KernelOp, Origin, Split};
use fuser_dialects::host::{i64_array_attr, kernel_state};
use fuser_ir::ir::Value;

impl Emitter<'_> {
    /// `host.kernel` for op `k` of the plan.
    pub(super) fn emit_kernel(&mut self, k: usize, kernel: &KernelOp, site: &Site) -> Result<(), String> {
        let op = self.plan.ops[k].op;
        let inputs: Vec<Value> =
            (0..self.ir.num_operands(op)).map(|i| self.operand(k, i, site)).collect::<Result<_, _>>()?;
        let outputs: Vec<Value> =
            (0..self.ir.num_results(op)).map(|j| self.result_target_of(k, j, site)).collect::<Result<_, _>>()?;
        let ctx = self.ctx;
        let mut params: Vec<(fuser_ir::attrs::Ident, fuser_ir::Attr)> = match self.ir.props(op) {
            Some(d) => ctx.dict_entries(d).to_vec(),
            None => Vec::new(),
        };
        let origin = match kernel.origin {
            Origin::None => Vec::new(),
            Origin::Result(j) => {
                let v = self.ir.result(op, j);
                let chunk_axis = site.lp.and(self.plan.ops[k].stream).map(|(ax, _)| ax);
                self.global_origin(v, chunk_axis, site)?
            }
            Origin::Operand(i) => {
                let v = self.ir.operand(op, i);
                let p = &self.plan.ops[k];
                let chunk_axis = site.lp.and(p.stream).and_then(|(ax, _)| p.axes.operand_axis(i, ax));
                self.global_origin(v, chunk_axis, site)?
            }
        };
        if let Origin::Result(j) | Origin::Operand(j) = kernel.origin {
            let v = match kernel.origin {
                Origin::Result(_) => self.ir.result(op, j),
                _ => self.ir.operand(op, j),
            };
            let global = self.plan.info[&v].global.clone();
            params.retain(|(key, _)| ctx.ident_str(*key) != "global_shape");
            params.push((ctx.ident("global_shape"), i64_array_attr(ctx, &global)));
        }
        let params = ctx.dictionary(params);
        let state = kernel_state(ctx, kernel.kernel, &inputs, &outputs, &origin, params, site.loc);
        crate::host::build::place(self.ir, site.at, state);
        Ok(())
    }

    /// The global coordinates of the first element of `v`'s local piece, or of this iteration's
    /// chunk of it when the loop chunks it along `chunk_axis`.
    fn global_origin(&mut self, v: Value, chunk_axis: Option<usize>, site: &Site) -> Result<Vec<Value>, String> {
        let info = self.plan.info[&v].clone();
        let first = info.mesh.as_ref().and_then(|m| m.devices.first().copied()).unwrap_or(0);
        let mut origin = Vec::with_capacity(info.global.len());
        for (a, splits) in info.sharding.axes.iter().enumerate() {
            let mut extent = info.global[a];
            let mut offset = self.constant(0, site.loc);
            let mut stream_outside_device = false;
            let mut seen_stream = false;
            for &split in splits {
                let (count, coord) = match split {
                    Split::Device(d) => {
                        let n = info.mesh.as_ref().and_then(|m| m.axis_size(d)).ok_or("internal error: no mesh")?;
                        stream_outside_device |= seen_stream && chunk_axis != Some(a);
                        let rank = self.rank(site.loc);
                        let base = self.constant(first, site.loc);
                        (n, self.index_op("arith.subi", rank, base, site))
                    }
                    Split::Stream(n) => {
                        seen_stream = true;
                        match (chunk_axis == Some(a), site.lp) {
                            (true, Some(lp)) => (n, lp.iv),
                            // The whole local piece: every chunk, the coordinate starts at 0.
                            _ => (n, self.constant(0, site.loc)),
                        }
                    }
                };
                if stream_outside_device {
                    return Err(format!(
                        "the kernel needs the global position of a value whose axis {a} is split {}: \
its local piece is not one block of the global tensor; put the Stream split inside the device split",
                        super::comm::splits_text(splits)
                    ));
                }
                extent /= count.max(1);
                let step = self.constant(extent, site.loc);
                let term = self.index_op("arith.muli", coord, step, site);
                offset = self.index_op("arith.addi", offset, term, site);
            }
            origin.push(offset);
        }
        Ok(origin)
    }
}
