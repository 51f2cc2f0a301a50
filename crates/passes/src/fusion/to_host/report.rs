//! The overlap report of `fusion-to-host{report=true}` (and of the overlap pipelines'
//! `report=true`): one remark per GEMM (`fusion.matmul`, `fusion.linear`) saying which
//! communication/compute overlap its host loop gives it, read off the [`Plan`] before emission:
//!
//! - `AG+GEMM`: the GEMM runs in a stream loop whose iterations gather (allgather, or a
//!   broadcast per chunk; an all-to-all) a chunk of one of its operands: the collective of one
//!   chunk overlaps the GEMM of another (`tp-overlap-p2p` turns the gathers into rings);
//! - `GEMM+RS` (`GEMM+AR`): the GEMM runs in a stream loop whose iterations reduce-scatter
//!   (allreduce) the chunk it computed;
//! - `none`, with the reason: not stream-chunked (its result's layout, and the collective next
//!   to it, which then runs whole), or in a stream loop with no collective of its own (a local
//!   GEMM: nothing to overlap).
//!
//! A GEMM made by `fusion-autodiff` carries `fusion.grad_of` (`"dgrad of fusion.linear
//! (forward op 3)"`), which the remark names, so every backward GEMM is accounted for.

use super::comm::Reshard;
use super::plan::{LocalKind, OpKind, Plan};
use crate::fusion::autodiff::builder::GRAD_OF_ATTR;
use fuser_dialects::fusion::Sharding;
use fuser_ir::Diagnostic;
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use rustc_hash::{FxHashMap, FxHashSet};

/// One remark per GEMM of `plan`, in program order.
pub fn overlap_report(ctx: &Context, ir: &Ir, plan: &Plan) -> Vec<Diagnostic> {
    let index: FxHashMap<OpId, usize> = plan.ops.iter().enumerate().map(|(k, p)| (p.op, k)).collect();
    let mut group_of = vec![0; plan.ops.len()];
    for (g, group) in plan.groups.iter().enumerate() {
        for &k in &group.ops {
            group_of[k] = g;
        }
    }
    let producer = |k: usize, i: usize| -> Option<usize> {
        ir.defining_op(ir.operand(plan.ops[k].op, i)).and_then(|d| index.get(&d).copied())
    };
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); plan.ops.len()];
    for k in 0..plan.ops.len() {
        for i in 0..ir.num_operands(plan.ops[k].op) {
            if let Some(p) = producer(k, i) {
                users[p].push(k);
            }
        }
    }
    let mut out = Vec::new();
    for (k, p) in plan.ops.iter().enumerate() {
        if !matches!(p.kind, OpKind::Local(LocalKind::Matmul | LocalKind::Linear)) {
            continue;
        }
        let g = group_of[k];
        let verdict = match plan.groups[g].chunks {
            Some(n) => in_loop(plan, ir, k, n, |j| group_of[j] == g, &producer, &users),
            None => outside_loops(ir, plan, k, &producer, &users),
        };
        let name = ctx.op_name_str(ir.op_name(p.op));
        let what = match grad_of(ctx, ir, p.op) {
            Some(g) => format!("{name} ({g})"),
            None => name.to_string(),
        };
        out.push(Diagnostic::remark(ir.loc(p.op), format!("overlap: {what}: {verdict}")));
    }
    out
}

/// The `fusion.grad_of` attribute of `op`, if any.
pub fn grad_of(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let a = ctx.dict_get(ir.attrs(op), GRAD_OF_ATTR)?;
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// Whether a resharding communicates (a copy or a local slice does not).
fn communicates(r: &Reshard) -> bool {
    !matches!(r, Reshard::Copy | Reshard::Slice { .. })
}

fn reshard(plan: &Plan, k: usize) -> Option<&Reshard> {
    match &plan.ops[k].kind {
        OpKind::Reshard(r) if communicates(r) => Some(r),
        _ => None,
    }
}

/// `an allgather`, `a reduce_scatter`.
fn with_article(r: &Reshard) -> String {
    let name = collective_name(r);
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {name}")
}

fn collective_name(r: &Reshard) -> &'static str {
    match r {
        Reshard::Allgather { .. } => "allgather",
        Reshard::Allreduce { .. } => "allreduce",
        Reshard::ReduceScatter { .. } => "reduce_scatter",
        Reshard::ReduceToOwner { .. } => "reduce to the chunk's owner",
        Reshard::AllToAll { .. } => "all_to_all",
        Reshard::Copy => "copy",
        Reshard::Slice { .. } => "slice",
    }
}

/// The verdict for GEMM `k` in a stream loop of `n` chunks (`same` tells the loop's ops).
fn in_loop(
    plan: &Plan,
    ir: &Ir,
    k: usize,
    n: i64,
    same: impl Fn(usize) -> bool,
    producer: &impl Fn(usize, usize) -> Option<usize>,
    users: &[Vec<usize>],
) -> String {
    // The loop's collectives that feed the GEMM (through ops of the loop), per operand.
    let mut gathers: Vec<String> = Vec::new();
    for i in 0..ir.num_operands(plan.ops[k].op) {
        let mut seen = FxHashSet::default();
        let mut stack: Vec<usize> = producer(k, i).filter(|&p| same(p)).into_iter().collect();
        let mut found: Option<&Reshard> = None;
        while let Some(j) = stack.pop() {
            if !seen.insert(j) {
                continue;
            }
            if let Some(r) = reshard(plan, j) {
                found = Some(r);
                break;
            }
            for o in 0..ir.num_operands(plan.ops[j].op) {
                stack.extend(producer(j, o).filter(|&p| same(p)));
            }
        }
        if let Some(r) = found {
            gathers.push(format!("{} of operand #{i}", collective_name(r)));
        }
    }
    // The loop's collectives that read the GEMM's result (through ops of the loop).
    let mut reductions: Vec<&Reshard> = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<usize> = users[k].iter().copied().filter(|&u| same(u)).collect();
    while let Some(j) = stack.pop() {
        if !seen.insert(j) {
            continue;
        }
        if let Some(r) = reshard(plan, j) {
            if !reductions.contains(&r) {
                reductions.push(r);
            }
            continue;
        }
        stack.extend(users[j].iter().copied().filter(|&u| same(u)));
    }
    let reduce_kind = |r: &&Reshard| match r {
        Reshard::Allreduce { .. } => "GEMM+AR",
        Reshard::Allgather { .. } | Reshard::AllToAll { .. } => "GEMM+AG",
        _ => "GEMM+RS",
    };
    let mut parts: Vec<String> = Vec::new();
    if !gathers.is_empty() {
        parts.push(format!("AG+GEMM ({} per chunk)", gathers.join(", ")));
    }
    for r in &reductions {
        parts.push(format!("{} ({} per chunk)", reduce_kind(r), collective_name(r)));
    }
    if parts.is_empty() {
        let near = neighbours(plan, ir, k, producer, users, "outside its loop");
        let near = if near.is_empty() { "nothing to overlap".to_string() } else { near.join(", ") };
        return format!("none (in a loop of {n} stream chunks without a collective of its own; {near})");
    }
    format!("{}, in a loop of {n} stream chunks", parts.join(" and "))
}

/// The verdict for GEMM `k` outside stream loops: none, with its result's layout and the
/// collectives next to it (which run whole).
fn outside_loops(
    ir: &Ir,
    plan: &Plan,
    k: usize,
    producer: &impl Fn(usize, usize) -> Option<usize>,
    users: &[Vec<usize>],
) -> String {
    let op = plan.ops[k].op;
    let layout = plan.info.get(&ir.result(op, 0)).map(|i| sharding_text(&i.sharding)).unwrap_or_default();
    let next = neighbours(plan, ir, k, producer, users, "run whole");
    let next = if next.is_empty() { "no collective next to it".to_string() } else { next.join(", ") };
    format!("none (not stream-chunked: its result is {layout}; {next})")
}

/// The collectives that produce an operand of GEMM `k` or read its result directly, each
/// said to run `how` (`"run whole"`, `"outside its loop"`).
fn neighbours(
    plan: &Plan,
    ir: &Ir,
    k: usize,
    producer: &impl Fn(usize, usize) -> Option<usize>,
    users: &[Vec<usize>],
    how: &str,
) -> Vec<String> {
    let mut next: Vec<String> = Vec::new();
    for i in 0..ir.num_operands(plan.ops[k].op) {
        if let Some(r) = producer(k, i).and_then(|p| reshard(plan, p)) {
            next.push(format!("operand #{i} comes from {} {how}", with_article(r)));
        }
    }
    for r in users[k].iter().filter_map(|&u| reshard(plan, u)) {
        next.push(format!("its result goes to {} {how}", with_article(r)));
    }
    next
}

/// `[[Stream(2)], []] partial = [DIDx]`.
fn sharding_text(s: &Sharding) -> String {
    let axes: Vec<String> = s.axes.iter().map(|a| super::comm::splits_text(a)).collect();
    let mut t = format!("[{}]", axes.join(", "));
    if !s.partial.is_empty() {
        let p: Vec<&str> = s.partial.iter().map(|d| d.keyword()).collect();
        t.push_str(&format!(" partial = [{}]", p.join(", ")));
    }
    t
}
