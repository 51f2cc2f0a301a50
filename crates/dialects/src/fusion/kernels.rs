//! Which fusion ops lower to a named `host.kernel` (docs/dev/ops.md): the kernel's name and,
//! for kernels whose result depends on global positions, which value's global origin the
//! lowering passes. Read by `fusion-to-host` (what to emit) and by the runtime's reference
//! (which global shape a kernel sees), so both agree by construction.

/// The value whose local piece's global origin a kernel receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The kernel is position-independent.
    None,
    /// Result `i` of the fusion op.
    Result(usize),
    /// Operand `i` of the fusion op.
    Operand(usize),
}

/// A fusion op implemented by a named kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelOp {
    /// The fusion op, `"fusion.softmax"`.
    pub op: &'static str,
    /// The kernel name of `host.kernel` and of the runtime's implementations, `"softmax"`.
    pub kernel: &'static str,
    pub origin: Origin,
}

/// Every fusion op lowered to a named kernel.
pub static KERNEL_OPS: &[KernelOp] = &[
    KernelOp { op: "fusion.embedding", kernel: "embedding", origin: Origin::Operand(0) },
    KernelOp { op: "fusion.dropout", kernel: "dropout", origin: Origin::Result(0) },
    KernelOp { op: "fusion.softmax", kernel: "softmax", origin: Origin::None },
    KernelOp { op: "fusion.log_softmax", kernel: "log_softmax", origin: Origin::None },
    KernelOp { op: "fusion.cross_entropy", kernel: "cross_entropy", origin: Origin::None },
    // The vocab-parallel phases: the parts pick the label's logit by the logits' global columns.
    KernelOp { op: "fusion.cross_entropy_parts", kernel: "cross_entropy_parts", origin: Origin::Operand(0) },
    KernelOp { op: "fusion.cross_entropy_finish", kernel: "cross_entropy_finish", origin: Origin::None },
    KernelOp { op: "fusion.layer_norm", kernel: "layer_norm", origin: Origin::None },
    KernelOp { op: "fusion.rms_norm", kernel: "rms_norm", origin: Origin::None },
    KernelOp { op: "fusion.sdpa", kernel: "sdpa", origin: Origin::Result(0) },
    // The backward's ops: sdpa_grad masks causally by global query indices (dq's origin); the
    // table gradient and the one-hot rows write the rows/columns their result piece holds.
    KernelOp { op: "fusion.sdpa_grad", kernel: "sdpa_grad", origin: Origin::Result(0) },
    KernelOp { op: "fusion.embedding_grad", kernel: "embedding_grad", origin: Origin::Result(0) },
    KernelOp { op: "fusion.one_hot", kernel: "one_hot", origin: Origin::Result(0) },
];

/// The kernel of the fusion op `op_name`, if it lowers to one.
pub fn kernel_op(op_name: &str) -> Option<&'static KernelOp> {
    KERNEL_OPS.iter().find(|k| k.op == op_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_match_their_op() {
        for (i, k) in KERNEL_OPS.iter().enumerate() {
            assert_eq!(k.op.strip_prefix("fusion."), Some(k.kernel), "{k:?}");
            assert!(KERNEL_OPS[..i].iter().all(|o| o.op != k.op), "{} listed twice", k.op);
        }
        assert!(kernel_op("fusion.add").is_none());
    }
}
