//! `fusion-set-stream-chunks{chunks=S}`: sets the chunk count of every `Stream(n)` split in a
//! fusion function to `S`, so that a pipeline's degree of overlap is an option instead of an
//! edit of every type (`tp-overlap-*{chunks=S}`). `chunks=0` leaves the program alone.
//!
//! Invariant: types keep their device splits and order; a chunk count that does not divide the
//! (static) extent it splits, together with the other splits of that axis, is diagnosed at the
//! op (or function) that carries the type.

use super::propagate::divisible;
use fuser_dialects::fusion::{Mesh, Sharding, Split};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};
use fuser_ir::{Diagnostic, Type};

static OPTIONS: &[OptionDef] =
    &[OptionDef::new("chunks", OptionType::Int, "0", "Chunk count of every Stream split (0: unchanged)")];

pub static FUSION_SET_STREAM_CHUNKS: PassInfo = PassInfo {
    name: "fusion-set-stream-chunks",
    display: "FusionSetStreamChunks",
    summary: "Set the chunk count of every Stream split of a fusion function",
    description: "Rewrites `Stream(n)` to `Stream(chunks)` in every tensor type of the function \
(arguments, results, op results) and checks that the new count divides the extent it splits.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| {
        let chunks = o.get_int("chunks");
        if chunks < 0 {
            return Err(format!("fusion-set-stream-chunks: 'chunks' must be >= 0, got {chunks}"));
        }
        Ok(Box::new(SetChunks { chunks, values: o.clone() }))
    },
};

struct SetChunks {
    chunks: i64,
    values: OptionValues,
}

impl Pass for SetChunks {
    fn info(&self) -> &'static PassInfo {
        &FUSION_SET_STREAM_CHUNKS
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        set_stream_chunks(ctx, ir, func, self.chunks).map(PassOutcome::from_changed)
    }
}

/// Rewrites the stream chunk counts of `func`; returns whether anything changed.
pub fn set_stream_chunks(ctx: &Context, ir: &mut Ir, func: OpId, chunks: i64) -> Result<bool, Diagnostic> {
    if chunks == 0 {
        return Ok(false);
    }
    let Some(body) = ir.regions(func).first().and_then(|&r| ir.region_entry(r)) else { return Ok(false) };
    let mut values: Vec<(Value, OpId)> = ir.block_args(body).iter().map(|&v| (v, func)).collect();
    for op in ir.nested_ops(func) {
        values.extend(ir.results(op).iter().map(|&v| (v, op)));
    }
    let mut changed = false;
    for (v, at) in values {
        let ty = ir.value_type(v);
        if let Some(new_ty) = rechunked(ctx, ir, at, ty, chunks)? {
            ir.set_value_type(v, new_ty);
            changed = true;
        }
    }
    if changed {
        fuser_dialects::func::sync_signature(ctx, ir, func);
    }
    Ok(changed)
}

/// `ty` with every stream split set to `chunks`, or `None` when it has no stream split to
/// change.
fn rechunked(ctx: &Context, ir: &Ir, at: OpId, ty: Type, chunks: i64) -> Result<Option<Type>, Diagnostic> {
    let Some(mut s) = Sharding::of_type(ctx, ty) else { return Ok(None) };
    let mut touched = false;
    for axis in &mut s.axes {
        for split in axis.iter_mut() {
            if let Split::Stream(n) = split
                && *n != chunks
            {
                *split = Split::Stream(chunks);
                touched = true;
            }
        }
    }
    if !touched {
        return Ok(None);
    }
    let shape = ctx.type_kind(ty).shape().map(<[i64]>::to_vec).unwrap_or_default();
    let mesh = Mesh::lookup(ctx, ir, at, &s.mesh);
    for (a, axis) in s.axes.iter().enumerate() {
        if axis.iter().any(|x| matches!(x, Split::Stream(_))) && !divisible(shape[a], axis, mesh.as_ref()) {
            return Err(fuser_ir::pass::op_error(
                ctx,
                ir,
                at,
                format!("{chunks} stream chunks do not divide axis {a} of extent {} (with its other splits)", shape[a]),
            ));
        }
    }
    Ok(Some(s.apply_to(ctx, ty)))
}
