//! `fusion-to-host`: rewrites a `func.func` of fusion tensor ops into a rank-generic host
//! function, in place (docs/dev/lowering.md §5).
//!
//! Phases: [`plan`] checks the preconditions (static shapes, one stream split per tensor, 1-D
//! meshes of consecutive devices, every op local or a resharding point) and groups the ops into
//! host loops without touching the IR; [`emit`] (and [`comm`] for resharding points) builds the
//! host ops; then this module rewrites the signature (tensors become `!host.buf` of their local
//! shape, with the tensor type kept in the `fusion.global_type` argument/result attribute), the
//! `func.return`, and erases the fusion ops.
//!
//! Invariants after the pass: no fusion tensor op is left in the function; every buffer is
//! allocated in the block that uses it or before the loop that writes it; every
//! `!comm.request` is waited on once, right after it is posted. A failure leaves the function
//! unchanged when it is found by the plan (all precondition checks are there).

pub mod comm;
pub mod emit;
pub mod info;
mod kernel;
pub mod plan;
pub mod report;
pub mod slicing;
pub mod value_map;

use crate::fusion::axes::op_axes;
use fuser_dialects::host::types::{MemoryKind, buf_type};
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};
use fuser_ir::types::TypeKind;
use fuser_ir::{Attr, Diagnostic, Type};

pub static FUSION_TO_HOST: PassInfo = PassInfo {
    name: "fusion-to-host",
    display: "FusionToHost",
    summary: "Lower a function of fusion tensor ops to a rank-generic host program",
    description: "Tensor arguments and results become `!host.buf` of their local shape (the tensor \
type is kept in the `fusion.global_type` argument/result attribute). Ops whose results are split \
in `Stream(n)` chunks run in `host.for` loops of `n` iterations (consecutive ops share a loop when \
their stream axes map onto each other); loop results used later are allocated in full before the \
loop and written through `host.shard_by_stream` views. Local ops become host compute ops; \
resharding points (`fusion.set`, `fusion.sum dims = []`) become a `comm` collective followed by \
its `comm.wait` (allgather, allreduce, reduce_scatter, or a broadcast per chunk for a device \
split turned into stream chunks), or a local slice copy. Meshes must be 1-D with consecutive \
devices. With `report=true`, one remark per GEMM (`fusion.matmul`, `fusion.linear`) says which \
overlap its loop gives it: `AG+GEMM` (a collective per chunk gathers an operand), `GEMM+RS` \
(`GEMM+AR`: a collective per chunk reduces its result), or `none` with the reason; a GEMM made by \
`fusion-autodiff` is named by its `fusion.grad_of` attribute (`dgrad of fusion.linear (forward \
op 3)`).",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| Ok(Box::new(FusionToHost { report: o.get_bool("report"), values: o.clone() })),
};

static OPTIONS: &[OptionDef] = &[OptionDef::new(
    "report",
    OptionType::Bool,
    "false",
    "Emit one remark per GEMM naming its overlap decomposition (AG+GEMM, GEMM+RS, GEMM+AR, or none and why)",
)];

struct FusionToHost {
    report: bool,
    values: OptionValues,
}

impl Pass for FusionToHost {
    fn info(&self) -> &'static PassInfo {
        &FUSION_TO_HOST
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        let (changed, remarks) = lower_to_host_reporting(ctx, ir, func, self.report)?;
        Ok(remarks.into_iter().fold(PassOutcome::from_changed(changed), PassOutcome::with_diagnostic))
    }
}

/// The name of the argument/result attribute holding the original tensor type.
pub const GLOBAL_TYPE_ATTR: &str = "fusion.global_type";

fn has_tensor(ctx: &Context, types: &[Type]) -> bool {
    types.iter().any(|&t| matches!(ctx.type_kind(t), TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }))
}

/// Lowers one function; returns whether it changed (a function without tensors is left alone).
pub fn lower_to_host(ctx: &Context, ir: &mut Ir, func: OpId) -> Result<bool, Diagnostic> {
    lower_to_host_reporting(ctx, ir, func, false).map(|(changed, _)| changed)
}

/// [`lower_to_host`], with the overlap report's remarks ([`report::overlap_report`]) when
/// `report` is set.
pub fn lower_to_host_reporting(
    ctx: &Context,
    ir: &mut Ir,
    func: OpId,
    report: bool,
) -> Result<(bool, Vec<Diagnostic>), Diagnostic> {
    let Some(body) = ir.regions(func).first().and_then(|&r| ir.region_entry(r)) else { return Ok((false, Vec::new())) };
    let Some((inputs, results)) = fuser_dialects::func::signature(ctx, ir, func) else {
        return Ok((false, Vec::new()));
    };
    let (inputs, results) = (inputs.to_vec(), results.to_vec());
    let all: Vec<OpId> = ir.block_ops(body).collect();
    let ops: Vec<OpId> = all.iter().copied().filter(|&op| op_axes(ctx, ir, op).is_some()).collect();
    if ops.is_empty() && !has_tensor(ctx, &inputs) && !has_tensor(ctx, &results) {
        return Ok((false, Vec::new()));
    }
    check_other_ops(ctx, ir, &all, &ops)?;
    let args: Vec<Value> = ir.block_args(body).to_vec();
    let plan = plan::plan(ctx, ir, func, &ops, &args)?;
    let remarks = if report { report::overlap_report(ctx, ir, &plan) } else { Vec::new() };
    let result_infos: Vec<Option<plan::TensorInfo>> = results
        .iter()
        .map(|&t| plan::tensor_info(ctx, ir, func, t))
        .collect::<Result<_, _>>()
        .map_err(|m| Diagnostic::error(ir.loc(func), m))?;
    let local_type = |info: &plan::TensorInfo| -> Result<Type, Diagnostic> {
        let shape = info.local_shape(false).map_err(|m| Diagnostic::error(ir.loc(func), m))?;
        Ok(buf_type(ctx, &shape, info.elem, MemoryKind::Device))
    };
    let mut new_inputs = Vec::with_capacity(inputs.len());
    for (&a, &t) in args.iter().zip(&inputs) {
        new_inputs.push(match plan.info.get(&a) {
            Some(info) => local_type(info)?,
            None => t,
        });
    }
    let mut new_results = Vec::with_capacity(results.len());
    for (info, &t) in result_infos.iter().zip(&results) {
        new_results.push(match info {
            Some(info) => local_type(info)?,
            None => t,
        });
    }
    for (&a, &t) in args.iter().zip(&new_inputs) {
        ir.set_value_type(a, t);
    }
    let mut em = emit::Emitter::new(ctx, ir, &plan, body);
    for &a in &args {
        if plan.info.contains_key(&a) {
            em.buf.insert(a, a);
        }
    }
    em.emit_all()?;
    let buffers = std::mem::take(&mut em.buf);
    rewrite_return(ctx, ir, body, &buffers)?;
    for &op in ops.iter().rev() {
        ir.erase_op(op);
    }
    fuser_dialects::func::set_signature(ctx, ir, func, new_inputs, new_results);
    set_global_types(ctx, ir, func, "arg_attrs", &inputs);
    set_global_types(ctx, ir, func, "res_attrs", &results);
    Ok((true, remarks))
}

/// Only fusion tensor ops and the terminator may touch tensors. `fusion` is the subsequence of
/// `all` that are fusion ops, in the same order, so one pass over both tells them apart (a
/// search of `fusion` per op made this check quadratic in the length of the function).
fn check_other_ops(ctx: &Context, ir: &Ir, all: &[OpId], fusion: &[OpId]) -> Result<(), Diagnostic> {
    let mut fusion = fusion.iter().peekable();
    for &op in all {
        if fusion.next_if_eq(&&op).is_some() || ctx.op_name_str(ir.op_name(op)) == "func.return" {
            continue;
        }
        let types: Vec<Type> = ir.operands(op).iter().chain(ir.results(op)).map(|&v| ir.value_type(v)).collect();
        if has_tensor(ctx, &types) {
            let name = ctx.op_name_str(ir.op_name(op));
            return Err(fuser_ir::pass::op_error(
                ctx,
                ir,
                op,
                format!("fusion-to-host cannot lower '{name}' on tensors"),
            ));
        }
    }
    Ok(())
}

/// Makes `func.return` return the buffers of the returned tensors.
fn rewrite_return(
    ctx: &Context,
    ir: &mut Ir,
    body: fuser_ir::BlockId,
    buffers: &value_map::ValueMap<Value>,
) -> Result<(), Diagnostic> {
    let Some(ret) = ir.last_op(body) else { return Ok(()) };
    if ctx.op_name_str(ir.op_name(ret)) != "func.return" {
        return Ok(());
    }
    for i in 0..ir.num_operands(ret) {
        let v = ir.operand(ret, i);
        if let Some(&b) = buffers.get(&v) {
            ir.set_operand(ret, i, b);
        } else if has_tensor(ctx, &[ir.value_type(v)]) {
            return Err(Diagnostic::error(ir.loc(ret), "internal error: a returned tensor has no buffer"));
        }
    }
    Ok(())
}

/// Adds `fusion.global_type = <tensor type>` to the per-argument (or per-result) dictionaries
/// `key` of `func`, for each tensor type in `types`.
fn set_global_types(ctx: &Context, ir: &mut Ir, func: OpId, key: &str, types: &[Type]) {
    if !has_tensor(ctx, types) {
        return;
    }
    let props = ir.props(func).unwrap_or_else(|| ctx.empty_dict());
    let old: Vec<Attr> = match ctx.dict_get(props, key).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(elems)) => elems.clone(),
        _ => Vec::new(),
    };
    let dicts: Vec<Attr> = types
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let d = old.get(i).copied().unwrap_or_else(|| ctx.empty_dict());
            if has_tensor(ctx, &[t]) { ctx.dict_set(d, GLOBAL_TYPE_ATTR, Some(ctx.type_attr(t))) } else { d }
        })
        .collect();
    ir.set_props(func, Some(ctx.dict_set(props, key, Some(ctx.array_attr(dicts)))));
}
