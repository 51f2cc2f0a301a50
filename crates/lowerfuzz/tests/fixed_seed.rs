//! The fixed-seed batch of the lowering fuzzer, run by `cargo test`: the cases of seeds
//! FIRST_SEED..FIRST_SEED + CASES (about ten seconds in a debug build on two cores; the window
//! was chosen because it reaches every known lowering bug class of issue 11 that the fuzzer
//! finds). One run, shared by the tests below:
//!
//! - `batch_is_valid_and_covers_the_space`: the generator made only valid programs, no case hung,
//!   and the batch reached every op kind, pipeline (with and without `host-fuse`), reduction
//!   kind, mesh size, dtype, the main communication patterns, the gradient ops' layouts
//!   (`sdpa_grad`'s context parallelism, `embedding_grad`'s vocab-parallel rows, ...), passing
//!   cases of every transformer and gradient op and passing cases with fused
//!   regions of every kind (a reduction, a broadcast, dropout, several outputs, in a stream
//!   loop, ...), with at least a quarter of the cases lowered and run — a
//!   fuzzer that only generates rejected programs would pass nothing here;
//! - `batch_finds_only_known_bugs`: every finding has a signature of [`KNOWN`] (empty: the bugs
//!   of issue 11 the batch reached, defects 1, 2, 3, 4, 6 and five found by the fuzzer, are
//!   fixed, see `crates/lowerfuzz/findings/README.md`); any other fails the test with its seeds
//!   and message (`fuser-lowerfuzz --seed S --count 1 --out DIR` shrinks it into a regression
//!   test). Known signatures that no longer occur are printed, so the list shrinks as bugs are
//!   fixed.

use fuser_lowerfuzz::campaign::{CampaignConfig, Stats, missing_pipelines, run};
use fuser_lowerfuzz::program::{OpKind, Reduce};
use fuser_lowerfuzz::verdict::FindingClass;
use std::sync::OnceLock;

const FIRST_SEED: u64 = 1000;
const CASES: u64 = 600;

fn batch() -> &'static Stats {
    static STATS: OnceLock<Stats> = OnceLock::new();
    STATS.get_or_init(|| {
        let cfg = CampaignConfig { first_seed: FIRST_SEED, count: Some(CASES), ..Default::default() };
        let stats = run(&cfg, &mut |_| {});
        eprintln!("{}", stats.summary());
        stats
    })
}

fn classes(stats: &Stats) -> Vec<FindingClass> {
    stats.findings.values().map(|f| f.finding.class).collect()
}

#[test]
fn batch_is_valid_and_covers_the_space() {
    let s = batch();
    assert_eq!(s.cases, CASES);
    for bad in [FindingClass::InvalidProgram, FindingClass::Hang] {
        assert!(!classes(s).contains(&bad), "{bad:?} in the fixed batch:\n{}", s.summary());
    }
    let c = &s.coverage;
    let mut missing: Vec<String> = Vec::new();
    for op in OpKind::MNEMONICS {
        if c.count("op", op) == 0 {
            missing.push(format!("op {op}"));
        }
    }
    // The transformer ops and the gradient ops lower, run and match the reference somewhere in
    // the batch (not only get refused).
    for op in &OpKind::MNEMONICS[..17] {
        if c.count("passed with op", op) == 0 {
            missing.push(format!("a passing case with {op}"));
        }
    }
    missing.extend(missing_pipelines(s).into_iter().map(|p| format!("pipeline {p}")));
    for r in Reduce::ALL {
        let any = c
            .tables
            .get("argument sharding")
            .is_some_and(|t| t.iter().any(|(k, n)| *n > 0 && k.contains(&format!("partial-{}", r.keyword()))));
        if !any {
            missing.push(format!("partial argument reducing by {}", r.keyword()));
        }
    }
    for d in 1..=8 {
        if c.count("mesh", &d.to_string()) == 0 {
            missing.push(format!("mesh of {d}"));
        }
    }
    for (table, key) in [
        ("dtype", "f32"),
        ("dtype", "bf16"),
        ("dtype", "f16"),
        ("dtype", "i8"),
        ("dtype", "i32"),
        ("dtype", "i64"),
        ("cast", "float -> int"),
        ("cast", "int -> float"),
        ("cast", "int -> int"),
        ("integer op", "div"),
        ("integer op", "mul"),
        ("integer op", "matmul"),
        ("integer op", "sum"),
        ("inputs", "overflow-prone"),
        ("argument sharding", "replicated"),
        ("argument sharding", "DIDx"),
        ("argument sharding", "Stream"),
        ("argument sharding", "DIDx+Stream"),
        ("result sharding", "unannotated"),
        ("outputs", "multi+reused"),
        ("set resharding", "split -> replicated"),
        ("set resharding", "split -> split"),
        ("set resharding", "replicated -> split"),
        ("set resharding", "partial -> replicated"),
        ("lowered to", "comm.allgather"),
        ("lowered to", "comm.allreduce"),
        ("lowered to", "comm.reduce_scatter"),
        ("lowered to", "comm.all_to_all"),
        ("lowered to", "comm.send"),
        ("lowered to", "comm.recv"),
        ("lowered to", "host.for"),
        ("multi-result op", "layer_norm"),
        ("multi-result op", "rms_norm"),
        ("multi-result op", "sdpa"),
        ("transformer op input sharding", "sdpa: DIDx"),
        ("transformer op input sharding", "softmax: Stream"),
        ("transformer op input sharding", "layer_norm: DIDx"),
        ("transformer op input sharding", "dropout: Stream"),
        ("transformer op input sharding", "dropout: DIDx+Stream"),
        ("transformer op input sharding", "embedding: DIDx"),
        ("transformer op input sharding", "cross_entropy: DIDx"),
        ("transformer op input sharding", "max: DIDx"),
        ("multi-result op", "sdpa_grad"),
        ("transformer op input sharding", "sdpa_grad: DIDx"),
        // The gradient ops' layouts: context parallelism (partial dk, dv), the query sequence
        // in stream chunks (refused with a diagnostic), token-split ids (partial sums) and
        // streamed classes generated; heads over devices, vocab-parallel table gradients and
        // class-split one-hot rows passing.
        ("gradient op layout", "sdpa_grad: query sequence over devices"),
        ("gradient op layout", "sdpa_grad: query sequence streamed"),
        ("gradient op layout", "sdpa_grad: other out, lse"),
        ("gradient op layout", "embedding_grad: tokens over devices"),
        ("gradient op layout", "one_hot: classes streamed"),
        ("passed with gradient op layout", "sdpa_grad: heads over devices"),
        ("passed with gradient op layout", "sdpa_grad: out, lse of a forward"),
        ("passed with gradient op layout", "embedding_grad: rows over devices"),
        ("passed with gradient op layout", "one_hot: classes over devices"),
    ] {
        if c.count(table, key) == 0 {
            missing.push(format!("{table}: {key}"));
        }
    }
    // Fusion (issue 24): every pipeline runs with and without host-fuse, and fused regions of
    // each kind lowered, ran and matched the reference (coverage's tables from the lowered IR).
    for label in fuser_lowerfuzz::pipeline::Pipeline::LABELS {
        for fusion in ["fused", "unfused"] {
            if c.count("pipeline fusion", &format!("{label} {fusion}")) == 0 {
                missing.push(format!("pipeline {label} {fusion}"));
            }
        }
    }
    for feature in [
        "region",
        "reduction",
        "norm or softmax",
        "broadcast",
        "dropout",
        "compare/where",
        "cast",
        "several outputs",
        "in a stream loop",
    ] {
        if c.count("passed with fused region", feature) == 0 {
            missing.push(format!("a passing case with a fused region: {feature}"));
        }
    }
    assert!(missing.is_empty(), "the fixed batch misses {missing:?}:\n{}", s.summary());
    assert!(s.passed * 4 >= s.cases, "fewer than a quarter of the cases lowered and passed:\n{}", s.summary());
}

/// The bugs the batch is known to reach (issue 11; `crates/lowerfuzz/findings/` has each one
/// shrunk): a signature prefix and its cause. A finding outside this list fails the batch.
const KNOWN: &[(&str, &str)] = &[
    // Every bug class the batch reached is fixed (crates/lowerfuzz/findings/README.md has the
    // history); add `(signature prefix, cause)` here only for a bug being fixed.
];

fn known_cause(signature: &str) -> Option<&'static str> {
    KNOWN.iter().find(|(prefix, _)| signature == *prefix || signature.starts_with(prefix)).map(|k| k.1)
}

#[test]
fn batch_finds_only_known_bugs() {
    let s = batch();
    let mut unknown = String::new();
    for (sig, f) in &s.findings {
        let msg: String = f.finding.message.chars().take(240).collect();
        match known_cause(sig) {
            Some(cause) => eprintln!("known finding ({cause}): [{sig}] seeds {:?}", f.seeds),
            None => unknown.push_str(&format!("  [{sig}] {} case(s), seeds {:?}: {msg}\n", f.cases, f.seeds)),
        }
    }
    for (prefix, cause) in KNOWN {
        if !s.findings.keys().any(|sig| sig.starts_with(prefix)) {
            eprintln!("known finding no longer seen ({cause}): [{prefix}]; remove it from KNOWN if it was fixed");
        }
    }
    assert!(
        unknown.is_empty(),
        "the fixed batch found new bug signatures; shrink one with `fuser-lowerfuzz --seed S --count 1 --out DIR`:\n{unknown}"
    );
}

#[test]
fn no_signature_is_excused() {
    for sig in
        ["race comm.reduce", "check-fail", "check-fail [passes with sum-partial inputs]", "race host.elementwise"]
    {
        assert_eq!(known_cause(sig), None, "{sig}");
    }
}
