//! `comm-collective-backend{backend=nccl|cuda_ipc}`: chooses the implementation of the
//! collectives that have more than one: sets `backend` on every `comm.allgather`,
//! `comm.allreduce` and `comm.reduce_scatter` of the function (at any depth, inside
//! `comm.group`s excepted: a group is one NCCL group, so its collectives stay NCCL).
//!
//! `cuda_ipc` is the copy-engine implementation (docs/dev/copy-engine.md): the data moves by
//! copy-engine copies between CUDA IPC-mapped buffers, so a stream-chunked GEMM keeps every SM
//! while the collective of another chunk runs. Other collectives (broadcast, reduce, ...)
//! have no such implementation and keep their backend.
//!
//! Invariant: only the `backend` property changes; semantics (and so every result) are the
//! same under either backend, which is what the differential matrix checks.

use crate::host::build::is;
use fuser_dialects::comm::{self, Backend, backend_attr};
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, WalkOrder};
use fuser_ir::pass::{EnumCase, OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};

static BACKENDS: &[EnumCase] = &[
    EnumCase { name: "nccl", description: "NCCL's collective kernels" },
    EnumCase { name: "cuda_ipc", description: "Copy-engine copies between CUDA IPC-mapped buffers" },
];
static OPTIONS: &[OptionDef] =
    &[OptionDef::new("backend", OptionType::Enum(BACKENDS), "nccl", "Implementation of the collectives")];

pub static COMM_COLLECTIVE_BACKEND: PassInfo = PassInfo {
    name: "comm-collective-backend",
    display: "CommCollectiveBackend",
    summary: "Choose NCCL or the copy-engine implementation of allgather, allreduce and reduce_scatter",
    description: "Sets `backend = B` on every `comm.allgather`, `comm.allreduce` and \
`comm.reduce_scatter` of the function that is not inside a `comm.group`. `cuda_ipc` selects the \
copy-engine implementation (data moved by copy-engine copies between CUDA IPC-mapped buffers, \
reductions by one small kernel), which leaves the SMs to concurrent GEMMs; `nccl` selects NCCL. \
Other collectives are left alone. The results are the same under either backend.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| {
        let backend = Backend::from_keyword(o.get_str("backend")).unwrap_or_default();
        Ok(Box::new(CollectiveBackend { backend, values: o.clone() }))
    },
};

struct CollectiveBackend {
    backend: Backend,
    values: OptionValues,
}

impl Pass for CollectiveBackend {
    fn info(&self) -> &'static PassInfo {
        &COMM_COLLECTIVE_BACKEND
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        Ok(PassOutcome::from_changed(set_collective_backend(ctx, ir, func, self.backend)))
    }
}

/// Sets `backend` on the copy-engine-capable collectives of `func` outside groups; returns
/// whether an op changed.
pub fn set_collective_backend(ctx: &Context, ir: &mut Ir, func: OpId, backend: Backend) -> bool {
    let targets: Vec<OpId> = ir
        .collect_ops(func, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| comm::collectives::has_copy_engine_form(ctx.op_name_str(ir.op_name(op))))
        .filter(|&op| !ir.parent_op(op).is_some_and(|p| is(ctx, ir, p, comm::GROUP.name)))
        .filter(|&op| comm::backend(ctx, ir, op) != backend)
        .collect();
    let attr = backend_attr(ctx, backend);
    for &op in &targets {
        let props = ir.props(op).unwrap_or_else(|| ctx.empty_dict());
        ir.set_props(op, Some(ctx.dict_set(props, "backend", Some(attr))));
    }
    !targets.is_empty()
}
