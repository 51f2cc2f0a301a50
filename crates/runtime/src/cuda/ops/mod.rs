//! The named kernels (`host.kernel`, docs/dev/ops.md) on the GPU: one file per kernel family,
//! each with its CUDA C source and a [`CudaImpl`] per kernel; [`CUDA_ALL`] lists them. A kernel
//! gets dense inputs and outputs ([`run`] stages strided views through dense temporaries) and
//! must compute what its semantics in `crate::ops` say, within the element type's tolerance.

pub mod attention;
pub mod grad;
pub mod lookup;
pub mod module;
pub mod norm;
pub mod sdpa_grad_gemm;
pub mod sdpa_grad_plan;
pub mod softmax;

use super::api::RawStream;
use super::gpu::Gpu;
use super::memory::CudaBuf;
use crate::error::{RtError, RtResult};
use crate::ops::{OpImpl, Params};

/// One launch of a named kernel.
pub struct CudaCall<'a> {
    pub gpu: &'a Gpu,
    pub params: &'a Params,
    /// Dense (row-major) inputs.
    pub inputs: &'a [CudaBuf],
    /// Dense (row-major) outputs.
    pub outputs: &'a [CudaBuf],
    pub origin: &'a [usize],
    pub global_shape: &'a [usize],
    pub stream: RawStream,
}

/// A named kernel on the GPU.
pub struct CudaImpl {
    pub name: &'static str,
    pub run: fn(&CudaCall<'_>) -> RtResult<()>,
}

/// Every named kernel the GPU has.
pub static CUDA_ALL: &[&CudaImpl] = &[
    &LAYER_NORM,
    &RMS_NORM,
    &SDPA,
    &EMBEDDING,
    &DROPOUT,
    &SOFTMAX,
    &LOG_SOFTMAX,
    &CROSS_ENTROPY,
    &CROSS_ENTROPY_PARTS,
    &CROSS_ENTROPY_FINISH,
    &SDPA_GRAD,
    &EMBEDDING_GRAD,
    &ONE_HOT,
];

// The kernel files sit below this one (they name no `CudaCall` or `CudaImpl`): each
// kernel's entry is here.

/// `fusion.layer_norm` (`norm.rs`).
static LAYER_NORM: CudaImpl =
    CudaImpl { name: "layer_norm", run: |c| norm::run_norm(c.gpu, c.params, c.inputs, c.outputs, c.stream, false) };
/// `fusion.rms_norm` (`norm.rs`).
static RMS_NORM: CudaImpl =
    CudaImpl { name: "rms_norm", run: |c| norm::run_norm(c.gpu, c.params, c.inputs, c.outputs, c.stream, true) };
/// `fusion.sdpa` (`attention.rs`).
static SDPA: CudaImpl =
    CudaImpl { name: "sdpa", run: |c| attention::run_sdpa(c.gpu, c.params, c.inputs, c.outputs, c.origin, c.stream) };
/// `fusion.embedding` (`lookup.rs`).
static EMBEDDING: CudaImpl =
    CudaImpl { name: "embedding", run: |c| lookup::run_embedding(c.gpu, c.inputs, c.outputs, c.origin, c.stream) };
/// `fusion.dropout` (`lookup.rs`).
static DROPOUT: CudaImpl = CudaImpl {
    name: "dropout",
    run: |c| lookup::run_dropout(c.gpu, c.params, c.inputs, c.outputs, c.origin, c.global_shape, c.stream),
};
/// `fusion.sdpa_grad` (`sdpa_grad_gemm.rs`: the GEMMs or `grad.rs`'s row kernel),
/// `fusion.embedding_grad`, `fusion.one_hot` (`grad.rs`).
static SDPA_GRAD: CudaImpl = CudaImpl {
    name: "sdpa_grad",
    run: |c| sdpa_grad_gemm::run_sdpa_grad(c.gpu, c.params, c.inputs, c.outputs, c.origin, c.stream),
};
static EMBEDDING_GRAD: CudaImpl = CudaImpl {
    name: "embedding_grad",
    run: |c| grad::run_embedding_grad(c.gpu, c.inputs, c.outputs, c.origin, c.stream),
};
static ONE_HOT: CudaImpl =
    CudaImpl { name: "one_hot", run: |c| grad::run_one_hot(c.gpu, c.inputs, c.outputs, c.origin, c.stream) };

/// `fusion.softmax`, `fusion.log_softmax`, `fusion.cross_entropy` and the vocab-parallel
/// phases (`softmax.rs`).
static SOFTMAX: CudaImpl =
    CudaImpl { name: "softmax", run: |c| softmax::run_softmax(c.gpu, c.params, c.inputs, c.outputs, c.stream, false) };
static LOG_SOFTMAX: CudaImpl = CudaImpl {
    name: "log_softmax",
    run: |c| softmax::run_softmax(c.gpu, c.params, c.inputs, c.outputs, c.stream, true),
};
static CROSS_ENTROPY_PARTS: CudaImpl = CudaImpl {
    name: "cross_entropy_parts",
    run: |c| softmax::run_ce_parts(c.gpu, c.inputs, c.outputs, c.origin, c.stream),
};
static CROSS_ENTROPY_FINISH: CudaImpl = CudaImpl {
    name: "cross_entropy_finish",
    run: |c| softmax::run_ce_finish(c.gpu, c.params, c.inputs, c.outputs, c.stream),
};
static CROSS_ENTROPY: CudaImpl = CudaImpl {
    name: "cross_entropy",
    run: |c| softmax::run_cross_entropy(c.gpu, c.params, c.inputs, c.outputs, c.stream),
};

/// The GPU implementation of kernel `name`.
pub fn lookup(name: &str) -> Option<&'static CudaImpl> {
    CUDA_ALL.iter().copied().find(|k| k.name == name)
}

/// Runs `kernel` on `gpu`: strided inputs are made dense, outputs that are not dense are
/// computed into dense temporaries and copied into place.
pub fn run(
    gpu: &Gpu,
    kernel: &OpImpl,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    global_shape: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let imp = lookup(kernel.name).ok_or_else(|| {
        RtError::new(format!("no cuda kernel for '{}' (it runs on the cpu backend: --backend cpu)", kernel.name))
    })?;
    let in_types: Vec<_> = inputs.iter().map(|b| (b.dtype, b.shape.clone())).collect();
    let out_types: Vec<_> = outputs.iter().map(|b| (b.dtype, b.shape.clone())).collect();
    (kernel.check)(params, &in_types, &out_types)
        .map_err(|m| RtError::new(format!("kernel '{}': {m}", kernel.name)))?;
    let dense_in: Vec<CudaBuf> = inputs.iter().map(|b| gpu.dense(b, stream)).collect::<RtResult<_>>()?;
    let dense_out: Vec<CudaBuf> = outputs
        .iter()
        .map(|b| if b.is_contiguous() { Ok(b.clone()) } else { gpu.new_buf(b.dtype, &b.shape) })
        .collect::<RtResult<_>>()?;
    let call = CudaCall { gpu, params, inputs: &dense_in, outputs: &dense_out, origin, global_shape, stream };
    (imp.run)(&call)?;
    for (d, o) in dense_out.iter().zip(outputs) {
        if !o.is_contiguous() {
            gpu.copy(d, o, stream)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gpu_kernel_has_semantics() {
        for (i, k) in CUDA_ALL.iter().enumerate() {
            assert!(crate::ops::lookup(k.name).is_some(), "cuda kernel '{}' has no crate::ops semantics", k.name);
            assert!(CUDA_ALL[..i].iter().all(|o| o.name != k.name), "{} listed twice", k.name);
        }
    }
}
