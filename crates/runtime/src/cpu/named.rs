//! The named kernels (`host.kernel`) on the cpu backend: each input view is read into a
//! [`Dense`] tensor, the kernel's semantics (`crate::ops`) computes the outputs, which are
//! stored in their element types and written back into the output views. The same functions
//! are the reference's, so a cpu run differs from the reference only through what the ranks
//! compute locally (the pieces, the communication), never through a second implementation.

use crate::buffer::View;
use crate::error::{RtError, RtResult};
use crate::fused::FusedGraph;
use crate::ops::{Call, Dense, OpImpl, Params, Vals};

/// A view's values as a dense tensor (integers exactly).
pub fn dense_of(v: &View) -> Dense {
    let shape = v.shape.to_vec();
    if v.dtype().is_int() {
        Dense::from_i64(v.dtype(), shape, v.read_ints())
    } else {
        Dense::from_f64(v.dtype(), shape, v.read())
    }
}

/// Runs `kernel` on the views (inputs all read before any output is written).
pub fn run(
    kernel: &OpImpl,
    params: &Params,
    inputs: &[View],
    outputs: &[View],
    origin: &[usize],
    global_shape: &[usize],
) -> RtResult<()> {
    let dense: Vec<Dense> = inputs.iter().map(dense_of).collect();
    let out_types: Vec<_> = outputs.iter().map(|o| (o.dtype(), o.shape.to_vec())).collect();
    let in_types: Vec<_> = dense.iter().map(|d| (d.dtype, d.shape.clone())).collect();
    (kernel.check)(params, &in_types, &out_types)
        .map_err(|m| RtError::new(format!("kernel '{}': {m}", kernel.name)))?;
    let call = Call { params, inputs: &dense, outputs: &out_types, origin, global_shape };
    let results = crate::ops::run(kernel, &call)?;
    for (view, d) in outputs.iter().zip(results) {
        match d.vals {
            Vals::F(v) => view.write(&v)?,
            Vals::I(v) => view.write_ints(&v)?,
        }
    }
    Ok(())
}

/// Runs a fused region (`host.fused`) on the views: inputs read dense, the graph evaluated
/// row chunk by row chunk (`fused::eval`), outputs written back.
pub fn run_fused(graph: &FusedGraph, inputs: &[View], outputs: &[View], origin: &[usize]) -> RtResult<()> {
    let dense: Vec<Dense> = inputs.iter().map(dense_of).collect();
    let results =
        crate::fused::eval::evaluate(graph, &dense, origin).map_err(|m| RtError::new(format!("host.fused: {m}")))?;
    for (view, v) in outputs.iter().zip(results) {
        view.write(&v)?;
    }
    Ok(())
}
