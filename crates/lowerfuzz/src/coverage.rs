//! Coverage of a run: how many cases used each op kind, sharding kind, `fusion.set`
//! resharding, mesh size, element type and pipeline, and which communication ops the lowered
//! programs contained. A fuzzer that only generates what already passes is useless; these
//! tables (printed in the summary, checked by the fixed-seed test) show what was exercised.

use crate::generate::Case;
use crate::program::{Program, Shard, Split};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Counts of cases per feature, grouped in tables.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    pub tables: BTreeMap<&'static str, BTreeMap<String, usize>>,
}

/// The kind of a sharding, for the tables: `replicated`, `DIDx`, `Stream`, `DIDx+Stream`,
/// `partial-max`, ... (device splits, stream splits and partial combine).
pub fn shard_kind(s: Option<&Shard>) -> String {
    let Some(s) = s else { return "unannotated".into() };
    let mut parts: Vec<String> = Vec::new();
    let mut dids: Vec<&str> = s
        .axes
        .iter()
        .flatten()
        .filter_map(|x| match x {
            Split::Device(d) => Some(d.keyword()),
            Split::Stream(_) => None,
        })
        .collect();
    dids.sort_unstable();
    parts.extend(dids.iter().map(|d| d.to_string()));
    if s.has_stream_split() {
        parts.push("Stream".into());
    }
    if !s.partial.is_empty() {
        parts.push(format!("partial-{}", s.reduce.keyword()));
    }
    if parts.is_empty() { "replicated".into() } else { parts.join("+") }
}

/// The coarse kind of a sharding for resharding pairs: where the device axes are.
fn placement_kind(s: Option<&Shard>) -> &'static str {
    match s {
        None => "unannotated",
        Some(s) if !s.partial.is_empty() => "partial",
        Some(s) if s.has_device_split() => "split",
        Some(_) => "replicated",
    }
}

impl Coverage {
    fn bump(&mut self, table: &'static str, key: impl Into<String>) {
        *self.tables.entry(table).or_default().entry(key.into()).or_default() += 1;
    }

    /// Counts what `case` generated; each feature once per case.
    pub fn record_case(&mut self, case: &Case) {
        let p = &case.program;
        let mut seen: BTreeSet<(&'static str, String)> = BTreeSet::new();
        for op in &p.ops {
            seen.insert(("op", op.kind.mnemonic().to_string()));
            seen.insert(("result sharding", shard_kind(op.result.shard.as_ref())));
            if op.kind == crate::program::OpKind::Set {
                let from = placement_kind(p.type_of(op.operands[0]).shard.as_ref());
                let to = placement_kind(op.result.shard.as_ref());
                seen.insert(("set resharding", format!("{from} -> {to}")));
            }
            if op.kind == crate::program::OpKind::Cast {
                let kind = |d: crate::program::DType| if d.is_int() { "int" } else { "float" };
                let from = kind(p.type_of(op.operands[0]).dtype);
                seen.insert(("cast", format!("{from} -> {}", kind(op.result.dtype))));
            }
            if op.result.dtype.is_int() {
                seen.insert(("integer op", op.kind.mnemonic().to_string()));
            }
            if let Some(&first) = op.operands.first()
                && is_transformer(&op.kind)
            {
                let shard = shard_kind(p.type_of(first).shard.as_ref());
                seen.insert(("transformer op input sharding", format!("{}: {shard}", op.kind.mnemonic())));
                if !op.kind.extra().is_empty() {
                    seen.insert(("multi-result op", op.kind.mnemonic().to_string()));
                }
            }
        }
        for layout in gradient_layouts(p) {
            seen.insert(("gradient op layout", layout));
        }
        for a in &p.args {
            seen.insert(("argument sharding", shard_kind(a.shard.as_ref())));
            seen.insert(("dtype", a.dtype.keyword().to_string()));
        }
        let mesh = p.mesh.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x");
        seen.insert(("mesh", mesh));
        seen.insert(("pipeline", case.pipeline.label().to_string()));
        seen.insert(("fusion", case.pipeline.fusion_label().to_string()));
        seen.insert(("pipeline fusion", format!("{} {}", case.pipeline.label(), case.pipeline.fusion_label())));
        if case.autodiff {
            seen.insert(("autodiff pipeline", case.pipeline.label().to_string()));
        }
        seen.insert(("inputs", if p.big_values { "overflow-prone" } else { "small" }.to_string()));
        seen.insert(("outputs", output_shape(p)));
        for (t, k) in seen {
            self.bump(t, k);
        }
    }

    /// Counts the ops of a case that lowered, ran and matched the reference (each op kind once):
    /// which ops pass end to end, not only get generated (and maybe refused).
    pub fn record_passed(&mut self, case: &Case) {
        let kinds: BTreeSet<&'static str> = case.program.ops.iter().map(|op| op.kind.mnemonic()).collect();
        for k in kinds {
            self.bump("passed with op", k);
            if case.autodiff {
                // The op's backward (its autodiff rule) lowered, ran and matched too.
                self.bump("autodiff passed with op", k);
            }
        }
        for layout in gradient_layouts(&case.program) {
            self.bump("passed with gradient op layout", layout);
        }
    }

    /// Counts the communication ops of a lowered program.
    pub fn record_lowered(&mut self, ops: &BTreeSet<String>) {
        for op in ops {
            self.bump("lowered to", op.clone());
        }
    }

    /// Counts what the fused regions of a lowered program hold (`fused region`) and, when the
    /// case passed, `passed with fused region`: fused regions checked against the reference.
    pub fn record_fused(&mut self, features: &BTreeSet<String>, passed: bool) {
        for f in features {
            self.bump("fused region", f.clone());
            if passed {
                self.bump("passed with fused region", f.clone());
            }
        }
    }

    /// How many cases had `key` in `table`.
    pub fn count(&self, table: &str, key: &str) -> usize {
        self.tables.get(table).and_then(|t| t.get(key)).copied().unwrap_or(0)
    }

    /// The tables as text, one line per table.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (table, counts) in &self.tables {
            let items: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(out, "  {table}: {}", items.join(", "));
        }
        out
    }
}

/// The ops of issue 23 and the gradient ops, whose sharding the lowering resolves per op kind.
fn is_transformer(kind: &crate::program::OpKind) -> bool {
    use crate::program::OpKind as K;
    matches!(
        kind,
        K::Reduce { .. }
            | K::Softmax { .. }
            | K::Norm { .. }
            | K::Sdpa { .. }
            | K::Slice { .. }
            | K::Concat { .. }
            | K::Embedding
            | K::Dropout { .. }
            | K::CrossEntropy { .. }
            | K::SdpaGrad { .. }
            | K::EmbeddingGrad { .. }
            | K::OneHot { .. }
    )
}

/// The layouts of the gradient ops that their lowerings treat apart: `sdpa_grad`'s heads or
/// query sequence over devices (partial `dk`, `dv`), its query sequence in stream chunks (a
/// diagnostic), `out` and `lse` from a forward `sdpa` or not; `embedding_grad`'s rows
/// (vocab-parallel) or tokens (partial sums) over devices; `one_hot`'s classes over devices or in
/// stream chunks.
fn gradient_layouts(p: &Program) -> BTreeSet<String> {
    use crate::program::OpKind as K;
    let splits = |t: &crate::program::TensorTy, axis: usize| -> (bool, bool) {
        let list = t.shard.as_ref().and_then(|s| s.axes.get(axis)).map_or(&[][..], |l| l.as_slice());
        (list.iter().any(|x| matches!(x, Split::Device(_))), list.iter().any(|x| matches!(x, Split::Stream(_))))
    };
    let mut out = BTreeSet::new();
    for op in &p.ops {
        match op.kind {
            K::SdpaGrad { .. } => {
                let q = p.type_of(op.operands[0]);
                let (heads, _) = splits(q, 1);
                let (seq_dev, seq_stream) = splits(q, 2);
                if heads {
                    out.insert("sdpa_grad: heads over devices".to_string());
                }
                if seq_dev {
                    out.insert("sdpa_grad: query sequence over devices".to_string());
                }
                if seq_stream {
                    out.insert("sdpa_grad: query sequence streamed".to_string());
                }
                let forward = op.operands[3].op().is_some_and(|i| matches!(p.ops[i].kind, K::Sdpa { .. }));
                out.insert(format!("sdpa_grad: {}", if forward { "out, lse of a forward" } else { "other out, lse" }));
            }
            K::EmbeddingGrad { .. } => {
                if splits(&op.result, 0).0 {
                    out.insert("embedding_grad: rows over devices".to_string());
                }
                if splits(p.type_of(op.operands[0]), 0).0 {
                    out.insert("embedding_grad: tokens over devices".to_string());
                }
            }
            K::OneHot { .. } => {
                let (dev, stream) = splits(&op.result, op.result.rank() - 1);
                if dev {
                    out.insert("one_hot: classes over devices".to_string());
                }
                if stream {
                    out.insert("one_hot: classes streamed".to_string());
                }
            }
            _ => {}
        }
    }
    out
}

/// `single`, `multi`, or `multi+reused` (a returned intermediate that later ops also use).
fn output_shape(p: &Program) -> String {
    if p.outputs.len() == 1 {
        return "single".into();
    }
    let reused = p.outputs.iter().any(|&v| p.ops.iter().any(|op| op.operands.contains(&v)))
        && p.outputs.iter().any(|v| v.op().is_some());
    if reused { "multi+reused".into() } else { "multi".into() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Did, Reduce};

    #[test]
    fn shard_kinds_name_every_part() {
        let mut s = Shard::replicated(2);
        assert_eq!(shard_kind(Some(&s)), "replicated");
        s.axes[1] = vec![Split::Stream(2), Split::Device(Did::X)];
        s.partial = vec![Did::Y];
        s.reduce = Reduce::Min;
        assert_eq!(shard_kind(Some(&s)), "DIDx+Stream+partial-min");
        assert_eq!(shard_kind(None), "unannotated");
    }
}
