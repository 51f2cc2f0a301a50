//! The table of named kernels ([`ALL`]) and how every evaluator runs one ([`run`]): check the
//! shapes, evaluate, store the outputs in their element types.

use super::attention;
use super::dense::Dense;
use super::grad;
use super::lookup as lookup_ops;
use super::norm;
use super::params::Params;
use super::{cross_entropy, softmax};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};

/// One evaluation of a kernel.
pub struct Call<'a> {
    pub params: &'a Params,
    pub inputs: &'a [Dense],
    /// The element type and shape of each output.
    pub outputs: &'a [(DType, Vec<usize>)],
    /// The global coordinates of the first element of the local piece the kernel's origin
    /// refers to (empty for position-independent kernels; zeros in the reference).
    pub origin: &'a [usize],
    /// The global shape of that value (empty for position-independent kernels).
    pub global_shape: &'a [usize],
}

/// A named kernel's semantics.
pub struct OpImpl {
    /// The kernel name, `"softmax"` (the fusion op without `fusion.`).
    pub name: &'static str,
    /// Checks the parameters and the (element type, local shape) of inputs and outputs, when a
    /// program is prepared.
    pub check: fn(&Params, &[(DType, Vec<usize>)], &[(DType, Vec<usize>)]) -> Result<(), String>,
    /// The outputs, unrounded: [`run`] stores them in their element types.
    pub eval: fn(&Call<'_>) -> RtResult<Vec<Dense>>,
}

impl std::fmt::Debug for OpImpl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpImpl({})", self.name)
    }
}

/// Every named kernel.
pub static ALL: &[&OpImpl] = &[
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

// The op files sit below this one (they name no `OpImpl` or `Call`): each kernel's entry is
// here.

/// `fusion.layer_norm` (`ops/norm.rs`).
static LAYER_NORM: OpImpl = OpImpl {
    name: "layer_norm",
    check: norm::check_layer_norm,
    eval: |c| norm::eval_layer_norm(c.params, c.inputs, c.outputs),
};
/// `fusion.rms_norm` (`ops/norm.rs`).
static RMS_NORM: OpImpl = OpImpl {
    name: "rms_norm",
    check: norm::check_rms_norm,
    eval: |c| norm::eval_rms_norm(c.params, c.inputs, c.outputs),
};
/// `fusion.sdpa` (`ops/attention.rs`).
static SDPA: OpImpl = OpImpl {
    name: "sdpa",
    check: attention::check_sdpa,
    eval: |c| attention::eval_sdpa(c.params, c.inputs, c.outputs, c.origin),
};
/// `fusion.embedding` (`ops/lookup.rs`): origin = the table's (its first global row).
static EMBEDDING: OpImpl = OpImpl {
    name: "embedding",
    check: lookup_ops::check_embedding,
    eval: |c| lookup_ops::eval_embedding(c.inputs, c.outputs, c.origin),
};
/// `fusion.dropout` (`ops/lookup.rs`): origin = the result's (the mask's global indices).
static DROPOUT: OpImpl = OpImpl {
    name: "dropout",
    check: lookup_ops::check_dropout,
    eval: |c| lookup_ops::eval_dropout(c.params, c.inputs, c.outputs, c.origin, c.global_shape),
};
/// `fusion.sdpa_grad` (`ops/grad.rs`): origin = `dq`'s (the causal mask's global query offset).
static SDPA_GRAD: OpImpl = OpImpl {
    name: "sdpa_grad",
    check: grad::check_sdpa_grad,
    eval: |c| grad::eval_sdpa_grad(c.params, c.inputs, c.outputs, c.origin),
};
/// `fusion.embedding_grad` (`ops/grad.rs`): origin = the result's (its first global row).
static EMBEDDING_GRAD: OpImpl = OpImpl {
    name: "embedding_grad",
    check: grad::check_embedding_grad,
    eval: |c| grad::eval_embedding_grad(c.inputs, c.outputs, c.origin),
};
/// `fusion.one_hot` (`ops/grad.rs`): origin = the result's (its last coordinate: the first
/// global class).
static ONE_HOT: OpImpl =
    OpImpl { name: "one_hot", check: grad::check_one_hot, eval: |c| grad::eval_one_hot(c.inputs, c.outputs, c.origin) };

/// `fusion.softmax`, `fusion.log_softmax` (`ops/softmax.rs`), `fusion.cross_entropy` and its
/// vocab-parallel phases (`ops/cross_entropy.rs`).
static SOFTMAX: OpImpl =
    OpImpl { name: "softmax", check: softmax::check, eval: |c| softmax::eval(c.params, c.inputs, false) };
static LOG_SOFTMAX: OpImpl =
    OpImpl { name: "log_softmax", check: softmax::check, eval: |c| softmax::eval(c.params, c.inputs, true) };
static CROSS_ENTROPY_PARTS: OpImpl = OpImpl {
    name: "cross_entropy_parts",
    check: cross_entropy::check_parts,
    eval: |c| cross_entropy::eval_parts(c.inputs, c.origin),
};
static CROSS_ENTROPY_FINISH: OpImpl = OpImpl {
    name: "cross_entropy_finish",
    check: cross_entropy::check_finish,
    eval: |c| cross_entropy::eval_finish(c.params, c.inputs),
};
static CROSS_ENTROPY: OpImpl =
    OpImpl { name: "cross_entropy", check: cross_entropy::check, eval: |c| cross_entropy::eval(c.params, c.inputs) };

/// The kernel named `name`.
pub fn lookup(name: &str) -> Option<&'static OpImpl> {
    ALL.iter().copied().find(|k| k.name == name)
}

/// Evaluates `kernel` and returns its outputs stored in their element types, after checking
/// that it produced one tensor of the right shape per output.
pub fn run(kernel: &OpImpl, call: &Call<'_>) -> RtResult<Vec<Dense>> {
    let outputs = (kernel.eval)(call)?;
    if outputs.len() != call.outputs.len() {
        return Err(RtError::new(format!(
            "kernel '{}' produced {} outputs, expected {}",
            kernel.name,
            outputs.len(),
            call.outputs.len()
        )));
    }
    outputs
        .into_iter()
        .zip(call.outputs)
        .map(|(mut d, (dtype, shape))| {
            if d.shape.iter().product::<usize>() != shape.iter().product::<usize>() {
                return Err(RtError::new(format!(
                    "kernel '{}' produced shape {:?}, expected {shape:?}",
                    kernel.name, d.shape
                )));
            }
            d.dtype = *dtype;
            d.shape = shape.clone();
            Ok(d.stored())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_names_are_unique() {
        for (i, k) in ALL.iter().enumerate() {
            assert!(ALL[..i].iter().all(|o| o.name != k.name), "{} listed twice", k.name);
            assert!(lookup(k.name).is_some());
        }
        assert!(lookup("no-such-kernel").is_none());
    }
}
