//! Reducing a failing case while its failure persists (same [`Finding::signature`]).
//!
//! Greedy: build the candidate edits of the current case, biggest first, and take the first
//! that still fails the same way; repeat until no edit does or the budget of oracle calls is
//! spent. Edits, in order: drop dead ops and unused arguments, drop a returned value, return an
//! operand of a returned op instead (the chain loses its tail), drop an
//! op (its uses read one of its operands of the same type, or a new argument), cut a chain (an
//! operand becomes a new argument), simplify a sharding (no `partial`, `reduce = sum`, one
//! split fewer, replicated, unannotated), a smaller mesh, fewer worker streams / the simplest
//! pipeline, smaller extents, f32 instead of bf16. Candidates need not be valid programs: an
//! invalid one fails as `invalid-program`, another signature, and is not taken.

use crate::generate::Case;
use crate::pipeline::Pipeline;
use crate::program::{OpKind, Program, Reduce, Shard, TensorTy, ValueRef};
use crate::verdict::{Finding, Verdict};
use std::time::{Duration, Instant};

/// Limits of one shrink.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkLimits {
    pub max_checks: usize,
    pub max_time: Duration,
}

impl Default for ShrinkLimits {
    fn default() -> Self {
        ShrinkLimits { max_checks: 400, max_time: Duration::from_secs(120) }
    }
}

/// The result of a shrink.
#[derive(Clone, Debug)]
pub struct Shrunk {
    pub case: Case,
    pub finding: Finding,
    /// Oracle calls made.
    pub checks: usize,
    /// Edits taken.
    pub steps: usize,
}

/// Shrinks `case`, which fails with `finding`; `check` runs the oracle on a candidate.
pub fn shrink(case: &Case, finding: &Finding, limits: ShrinkLimits, check: &mut dyn FnMut(&Case) -> Verdict) -> Shrunk {
    let signature = finding.signature();
    let start = Instant::now();
    let mut best = Shrunk { case: case.clone(), finding: finding.clone(), checks: 0, steps: 0 };
    'outer: loop {
        for candidate in candidates(&best.case) {
            if best.checks >= limits.max_checks || start.elapsed() > limits.max_time {
                break 'outer;
            }
            best.checks += 1;
            if let Verdict::Found(f) = check(&candidate)
                && f.signature() == signature
            {
                best.case = candidate;
                best.finding = f;
                best.steps += 1;
                continue 'outer;
            }
        }
        break;
    }
    best
}

/// The candidate edits of `case`, biggest first.
pub fn candidates(case: &Case) -> Vec<Case> {
    let p = &case.program;
    let mut programs: Vec<Program> = Vec::new();
    let pruned = prune(p);
    if pruned != *p {
        programs.push(pruned);
    }
    for k in 0..p.outputs.len() {
        if p.outputs.len() > 1 {
            let mut q = p.clone();
            q.outputs.remove(k);
            programs.push(prune(&q));
        }
    }
    for k in 0..p.outputs.len() {
        programs.extend(return_operand_variants(p, k));
    }
    for i in (0..p.ops.len()).rev() {
        programs.extend(drop_op_variants(p, i));
    }
    for j in 0..p.ops.len() {
        for k in 0..p.ops[j].operands.len() {
            if p.ops[j].operands[k].op().is_some() {
                programs.push(prune(&cut_operand(p, j, k)));
            }
        }
    }
    programs.extend(drop_extra_results(p));
    programs.extend(sharding_variants(p));
    programs.extend(extent_variants(p));
    if p.has_dtype(crate::program::DType::BF16) || p.has_dtype(crate::program::DType::F16) {
        programs.push(p.in_f32());
    }
    if p.big_values {
        programs.push(Program { big_values: false, ..p.clone() });
    }
    let mut out: Vec<Case> = programs.into_iter().map(|program| Case { program, ..case.clone() }).collect();
    out.extend(mesh_variants(case));
    out.extend(pipeline_variants(case));
    out
}

/// Removes ops that no output depends on and arguments nothing uses; duplicate outputs go.
pub fn prune(p: &Program) -> Program {
    let mut live_ops = vec![false; p.ops.len()];
    let mut live_args = vec![false; p.args.len()];
    let mut stack: Vec<ValueRef> = p.outputs.clone();
    while let Some(v) = stack.pop() {
        match v {
            ValueRef::Arg(i) => live_args[i] = true,
            ValueRef::Op(i) | ValueRef::Res(i, _) if !live_ops[i] => {
                live_ops[i] = true;
                stack.extend(p.ops[i].operands.iter().copied());
            }
            ValueRef::Op(_) | ValueRef::Res(..) => {}
        }
    }
    let arg_map = renumbering(&live_args);
    let op_map = renumbering(&live_ops);
    let map = |v: ValueRef| match v {
        ValueRef::Arg(i) => ValueRef::Arg(arg_map[i].unwrap_or(0)),
        ValueRef::Op(i) | ValueRef::Res(i, _) => v.with_op(op_map[i].unwrap_or(0)),
    };
    let mut outputs: Vec<ValueRef> = Vec::new();
    for &o in &p.outputs {
        if !outputs.contains(&map(o)) {
            outputs.push(map(o));
        }
    }
    Program {
        mesh: p.mesh.clone(),
        args: p.args.iter().zip(&live_args).filter(|(_, l)| **l).map(|(a, _)| a.clone()).collect(),
        ops: p
            .ops
            .iter()
            .zip(&live_ops)
            .filter(|(_, l)| **l)
            .map(|(op, _)| {
                let mut op = op.clone();
                op.operands = op.operands.iter().map(|&v| map(v)).collect();
                op
            })
            .collect(),
        outputs,
        big_values: p.big_values,
        bounds: p.bounds.iter().filter_map(|&(a, b)| arg_map[a].map(|a| (a, b))).collect(),
    }
}

/// New index of each kept slot.
fn renumbering(live: &[bool]) -> Vec<Option<usize>> {
    let mut next = 0;
    live.iter()
        .map(|&l| {
            l.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Replaces every use of `from` (operands and outputs) by `to`.
fn replace_uses(p: &mut Program, from: ValueRef, to: ValueRef) {
    for op in &mut p.ops {
        for v in &mut op.operands {
            if *v == from {
                *v = to;
            }
        }
    }
    for v in &mut p.outputs {
        if *v == from {
            *v = to;
        }
    }
}

/// A new argument of type `t` (replicated when `t` is unannotated).
fn add_arg(p: &mut Program, t: &TensorTy) -> ValueRef {
    let mut t = t.clone();
    if t.shard.is_none() {
        t.shard = Some(Shard::replicated(t.rank()));
    }
    p.args.push(t);
    ValueRef::Arg(p.args.len() - 1)
}

/// Output `k` (the result of an op) replaced by each operand of that op, which is annotated
/// (replicated) if it was not: the chain loses its tail.
fn return_operand_variants(p: &Program, k: usize) -> Vec<Program> {
    let Some(i) = p.outputs[k].op() else { return Vec::new() };
    let mut out = Vec::new();
    for &v in &p.ops[i].operands {
        let mut q = p.clone();
        q.outputs[k] = v;
        if let ValueRef::Op(j) = v
            && q.ops[j].result.shard.is_none()
        {
            q.ops[j].result.shard = Some(Shard::replicated(q.ops[j].result.rank()));
        }
        out.push(prune(&q));
    }
    out
}

/// Op `i` dropped, its uses reading each operand of its shape and type, or a new argument.
fn drop_op_variants(p: &Program, i: usize) -> Vec<Program> {
    let result = &p.ops[i].result;
    let mut out = Vec::new();
    let mut replacements: Vec<ValueRef> = p.ops[i]
        .operands
        .iter()
        .copied()
        .filter(|&v| {
            let t = p.type_of(v);
            t.shape == result.shape && t.dtype == result.dtype
        })
        .collect();
    replacements.dedup();
    for r in replacements {
        let mut q = p.clone();
        replace_uses(&mut q, ValueRef::Op(i), r);
        out.push(prune(&q));
    }
    let mut q = p.clone();
    let a = add_arg(&mut q, result);
    replace_uses(&mut q, ValueRef::Op(i), a);
    // The secondary results (statistics, `lse`) that later ops read become arguments too.
    for (k, t) in p.ops[i].kind.extra().iter().enumerate() {
        let a = add_arg(&mut q, t);
        replace_uses(&mut q, ValueRef::Res(i, k + 1), a);
    }
    out.push(prune(&q));
    out
}

/// Operand `k` of op `j` replaced by a new argument of its type.
fn cut_operand(p: &Program, j: usize, k: usize) -> Program {
    let mut q = p.clone();
    let t = q.type_of(q.ops[j].operands[k]).clone();
    let a = add_arg(&mut q, &t);
    q.ops[j].operands[k] = a;
    q
}

/// Simpler variants of one sharding.
fn simpler_shards(s: &Shard) -> Vec<Shard> {
    let mut out = Vec::new();
    if !s.partial.is_empty() {
        out.push(Shard { partial: Vec::new(), reduce: Reduce::Sum, ..s.clone() });
        if s.reduce != Reduce::Sum {
            out.push(Shard { reduce: Reduce::Sum, ..s.clone() });
        }
    }
    for axis in 0..s.axes.len() {
        for pos in 0..s.axes[axis].len() {
            let mut t = s.clone();
            t.axes[axis].remove(pos);
            out.push(t);
        }
    }
    out
}

fn sharding_variants(p: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    for i in 0..p.args.len() {
        if let Some(s) = &p.args[i].shard {
            for t in simpler_shards(s) {
                let mut q = p.clone();
                q.args[i].shard = Some(t);
                out.push(q);
            }
        }
    }
    for i in 0..p.ops.len() {
        let Some(s) = &p.ops[i].result.shard else { continue };
        if !p.outputs.contains(&ValueRef::Op(i)) {
            let mut q = p.clone();
            q.ops[i].result.shard = None;
            out.push(q);
        }
        for t in simpler_shards(s) {
            let mut q = p.clone();
            q.ops[i].result.shard = Some(t);
            out.push(q);
        }
    }
    out
}

/// A multi-result op without its secondary results (statistics, `lse`) when nothing reads them
/// (`sdpa_grad`'s `dk` and `dv` are not optional: it keeps them).
fn drop_extra_results(p: &Program) -> Vec<Program> {
    let reads = |i: usize| {
        p.outputs
            .iter()
            .chain(p.ops.iter().flat_map(|o| &o.operands))
            .any(|v| matches!(v, ValueRef::Res(j, _) if *j == i))
    };
    let mut out = Vec::new();
    for i in 0..p.ops.len() {
        if p.ops[i].kind.extra().is_empty() || reads(i) {
            continue;
        }
        let mut q = p.clone();
        match &mut q.ops[i].kind {
            OpKind::Norm { stats, .. } => stats.clear(),
            OpKind::Sdpa { lse, .. } => *lse = None,
            _ => continue,
        }
        out.push(q);
    }
    out
}

/// Every occurrence of one extent divided by 2 or 3 (shapes stay consistent where they were
/// equal; the verifier rejects the rest).
fn extent_variants(p: &Program) -> Vec<Program> {
    let mut extents: Vec<usize> = p
        .args
        .iter()
        .chain(p.ops.iter().flat_map(|o| std::iter::once(&o.result).chain(o.kind.extra())))
        .flat_map(|t| t.shape.clone())
        .collect();
    extents.sort_unstable();
    extents.dedup();
    let mut out = Vec::new();
    for &e in extents.iter().rev() {
        for f in [2, 3] {
            if e % f == 0 && e > 1 {
                let mut q = p.clone();
                for t in crate::program::all_types(&mut q) {
                    for x in &mut t.shape {
                        if *x == e {
                            *x = e / f;
                        }
                    }
                }
                // The row and class counts written as attributes follow their extents (and
                // the ids' and labels' bounds with them).
                for op in &mut q.ops {
                    if let OpKind::EmbeddingGrad { num_rows: n } | OpKind::OneHot { num_classes: n } = &mut op.kind
                        && *n == e
                    {
                        *n = e / f;
                    }
                }
                for b in &mut q.bounds {
                    if b.1 == e as i64 {
                        b.1 = (e / f) as i64;
                    }
                }
                out.push(q);
            }
        }
    }
    out
}

/// A 1-D mesh of each smaller divisor of the device count (ring chunks following).
fn mesh_variants(case: &Case) -> Vec<Case> {
    let [d] = case.program.mesh[..] else { return Vec::new() };
    (1..d)
        .filter(|x| d % x == 0)
        .map(|x| {
            let mut c = case.clone();
            c.program.mesh = vec![x];
            c.pipeline = match c.pipeline {
                Pipeline::Collective { streams, chunks, copy_engine, fuse } if chunks == d => {
                    Pipeline::Collective { streams, chunks: x, copy_engine, fuse }
                }
                Pipeline::P2p { streams, chunks, ring, fuse } if chunks == d => {
                    Pipeline::P2p { streams, chunks: x, ring, fuse }
                }
                other => other,
            };
            c
        })
        .collect()
}

/// One worker stream; `tp-default` instead of the pipeline; no `host-fuse` (a finding that
/// survives it is not about fused regions).
fn pipeline_variants(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let fuse = case.pipeline.fuse();
    let one = match case.pipeline {
        Pipeline::Default { streams, fuse } if streams > 1 => Some(Pipeline::Default { streams: 1, fuse }),
        Pipeline::Host { streams, fuse } if streams > 1 => Some(Pipeline::Host { streams: 1, fuse }),
        Pipeline::Collective { streams, chunks, copy_engine, fuse } if streams > 1 => {
            Some(Pipeline::Collective { streams: 1, chunks, copy_engine, fuse })
        }
        // NCCL collectives instead of the copy-engine ones.
        Pipeline::Collective { streams, chunks, copy_engine: true, fuse } => {
            Some(Pipeline::Collective { streams, chunks, copy_engine: false, fuse })
        }
        Pipeline::P2p { streams, chunks, ring, fuse } if streams > 1 => {
            Some(Pipeline::P2p { streams: 1, chunks, ring, fuse })
        }
        _ => None,
    };
    out.extend(one.map(|pipeline| Case { pipeline, ..case.clone() }));
    if !matches!(case.pipeline, Pipeline::Default { .. }) {
        out.push(Case { pipeline: Pipeline::Default { streams: 1, fuse }, ..case.clone() });
    }
    if fuse {
        out.push(Case { pipeline: case.pipeline.with_fuse(false), ..case.clone() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenConfig, generate};
    use crate::verdict::FindingClass;

    #[test]
    fn prune_renumbers_and_drops_dead_values() {
        let case = generate(3, &GenConfig::default());
        let mut p = case.program.clone();
        p.outputs = vec![ValueRef::Op(0)];
        let q = prune(&p);
        assert_eq!(q.ops.len(), 1);
        assert!(q.args.len() <= q.ops[0].operands.len());
        assert!(q.ops[0].operands.iter().all(|v| matches!(v, ValueRef::Arg(i) if *i < q.args.len())));
    }

    /// Halving the class count of a `one_hot` halves its `num_classes` and the labels' bound.
    #[test]
    fn extent_variants_follow_row_and_class_counts() {
        use crate::program::{DType, Op};
        let t = |shape: &[usize], dtype| TensorTy { shape: shape.to_vec(), dtype, shard: None };
        let p = Program {
            mesh: vec![1],
            args: vec![t(&[3], DType::I64)],
            ops: vec![Op {
                kind: OpKind::OneHot { num_classes: 8 },
                operands: vec![ValueRef::Arg(0)],
                result: t(&[3, 8], DType::F32),
            }],
            outputs: vec![ValueRef::Op(0)],
            big_values: false,
            bounds: vec![(0, 8)],
        };
        let halved = extent_variants(&p).into_iter().find(|q| q.ops[0].result.shape == [3, 4]).expect("8 / 2");
        assert_eq!(halved.ops[0].kind, OpKind::OneHot { num_classes: 4 });
        assert_eq!(halved.bounds, vec![(0, 4)]);
        assert!(halved.to_mlir().contains("num_classes = 4 : (tensor<3xi64>) -> tensor<3x4xf32>"));
    }

    /// A synthetic failure (the program has a `set` op) shrinks to a single `set`.
    #[test]
    fn shrinks_a_synthetic_failure_to_its_core() {
        let cfg = GenConfig::default();
        let case = (0..500)
            .map(|s| generate(s, &cfg))
            .find(|c| {
                let live = prune(&c.program);
                live.ops.len() >= 4 && live.ops.iter().any(|o| o.kind == crate::program::OpKind::Set)
            })
            .expect("a case with a set");
        let finding = Finding::new(FindingClass::CheckFail, "synthetic");
        let mut check = |c: &Case| {
            if c.program.ops.iter().any(|o| o.kind == crate::program::OpKind::Set) {
                Verdict::Found(finding.clone())
            } else {
                Verdict::Pass
            }
        };
        let shrunk = shrink(&case, &finding, ShrinkLimits::default(), &mut check);
        assert_eq!(shrunk.case.program.ops.len(), 1, "{}", shrunk.case.program.to_mlir());
        assert!(shrunk.steps > 0);
    }
}
