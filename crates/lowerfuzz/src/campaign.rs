//! A fuzzing run: cases of consecutive seeds, for a number of cases or a time budget, each
//! checked under the watchdog. Keeps the counts (passed, rejected with the reasons, rounding
//! noise, findings per signature with their seeds), the coverage tables and the throughput;
//! shrinks the first case of each new finding signature and writes it as a regression test.

use crate::coverage::Coverage;
use crate::generate::{Case, GenConfig, generate};
use crate::oracle::{OracleOptions, check_case};
use crate::pipeline::Pipeline;
use crate::regression::write_regression_test;
use crate::shrink::{ShrinkLimits, Shrunk, shrink};
use crate::verdict::{Finding, Verdict};
use crate::watchdog::{guarded, leaked_threads};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct CampaignConfig {
    pub first_seed: u64,
    /// Stop after this many cases (`None`: only the time budget stops).
    pub count: Option<u64>,
    /// Stop after this long.
    pub duration: Option<Duration>,
    pub generator: GenConfig,
    pub oracle: OracleOptions,
    /// Time limit of one case (a case past it is a hang).
    pub case_timeout: Duration,
    /// Shrink findings (the first case of each signature).
    pub shrink: Option<ShrinkLimits>,
    /// Write shrunk findings here as regression tests.
    pub out_dir: Option<PathBuf>,
    /// Stop when this many case threads hung (they keep running, detached).
    pub max_hangs: usize,
}

impl Default for CampaignConfig {
    fn default() -> Self {
        CampaignConfig {
            first_seed: 0,
            count: Some(100),
            duration: None,
            generator: GenConfig::default(),
            oracle: OracleOptions::default(),
            case_timeout: Duration::from_secs(60),
            shrink: None,
            out_dir: None,
            max_hangs: 4,
        }
    }
}

/// A finding signature and the cases that showed it.
#[derive(Clone, Debug)]
pub struct FoundCase {
    pub finding: Finding,
    pub first_seed: u64,
    pub pipeline: String,
    /// Seeds of the cases with this signature (the first few).
    pub seeds: Vec<u64>,
    pub cases: usize,
    pub shrunk: Option<Shrunk>,
    pub test_path: Option<PathBuf>,
}

/// Counts of a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub cases: u64,
    pub passed: u64,
    pub rejected: u64,
    pub noise: u64,
    /// The first noise cases: seed, pipeline label and message (to review the tolerance).
    pub noise_cases: Vec<(u64, String, String)>,
    pub found: u64,
    /// Normalized rejection message → (cases, first seed).
    pub rejections: BTreeMap<String, (u64, u64)>,
    /// Signature → the cases that showed it.
    pub findings: BTreeMap<String, FoundCase>,
    /// Autodiff cases ([`Case::autodiff`]): [cases, passed, refused by `fusion-autodiff`
    /// (no rule for an op), rejected by the lowering of the joint].
    pub autodiff: [u64; 4],
    /// Pipeline label, ` (unfused)` when it ran without `host-fuse`, ` (autodiff)` for an
    /// autodiff case → [passed, rejected, noise, found].
    pub per_pipeline: BTreeMap<String, [u64; 4]>,
    pub coverage: Coverage,
    /// Time spent checking cases (shrinking excluded).
    pub check_time: Duration,
    pub shrink_time: Duration,
}

impl Stats {
    /// Cases per minute of checking time.
    pub fn per_minute(&self) -> f64 {
        let s = self.check_time.as_secs_f64();
        if s > 0.0 { self.cases as f64 * 60.0 / s } else { 0.0 }
    }

    /// One progress line.
    pub fn progress_line(&self) -> String {
        let mut line = format!(
            "{} cases ({:.0}/min): {} passed, {} rejected, {} noise, {} findings in {} signatures",
            self.cases,
            self.per_minute(),
            self.passed,
            self.rejected,
            self.noise,
            self.found,
            self.findings.len()
        );
        let [n, passed, refused, rejected] = self.autodiff;
        if n > 0 {
            let _ = write!(
                line,
                "; autodiff: {n} cases, {passed} passed, {refused} refused by fusion-autodiff, {rejected} rejected by the lowering"
            );
        }
        line
    }

    /// The full summary: counts, rejection reasons, findings, per-pipeline results, coverage.
    pub fn summary(&self) -> String {
        let mut s = format!("fuser-lowerfuzz: {}\n", self.progress_line());
        let pct = |n: u64| if self.cases > 0 { 100.0 * n as f64 / self.cases as f64 } else { 0.0 };
        let _ = writeln!(
            s,
            "rejected (clean diagnostics, not findings): {:.1}% of cases; noise (rounding: passes in f32, or its f64 error is ~1e9 times smaller): {:.1}%",
            pct(self.rejected),
            pct(self.noise)
        );
        let mut reasons: Vec<(&String, &(u64, u64))> = self.rejections.iter().collect();
        reasons.sort_by_key(|r| std::cmp::Reverse(r.1.0));
        for (reason, (n, seed)) in reasons.iter().take(12) {
            let _ = writeln!(s, "  {n:>6} x (seed {seed}) {reason}");
        }
        for (seed, label, msg) in &self.noise_cases {
            let _ = writeln!(s, "  noise: seed {seed} ({label}): {msg}");
        }
        let _ = writeln!(s, "per pipeline [passed, rejected, noise, found]:");
        for (p, c) in &self.per_pipeline {
            let _ = writeln!(s, "  {p}: {c:?}");
        }
        let _ = writeln!(s, "findings ({} signatures):", self.findings.len());
        for (sig, f) in &self.findings {
            let _ = writeln!(
                s,
                "  [{}] {} case(s), first seed {} ({}), seeds {:?}",
                sig, f.cases, f.first_seed, f.pipeline, f.seeds
            );
            let msg: String = f.finding.message.chars().take(300).collect();
            let _ = writeln!(s, "      {msg}");
            if let Some(sh) = &f.shrunk {
                let _ = writeln!(
                    s,
                    "      shrunk in {} steps ({} checks) to {} op(s) on {} device(s) with {}",
                    sh.steps,
                    sh.checks,
                    sh.case.program.ops.len(),
                    sh.case.program.devices(),
                    sh.case.pipeline.text()
                );
            }
            if let Some(p) = &f.test_path {
                let _ = writeln!(s, "      regression test: {}", p.display());
            }
        }
        let _ = writeln!(s, "coverage (cases per feature):");
        s.push_str(&self.coverage.render());
        if self.shrink_time > Duration::ZERO {
            let _ = writeln!(s, "shrinking took {:.1} s", self.shrink_time.as_secs_f64());
        }
        s
    }

    fn record(&mut self, case: &Case, verdict: &Verdict) {
        self.cases += 1;
        let mut key = case.pipeline.label().to_string();
        if !case.pipeline.fuse() {
            key.push_str(" (unfused)");
        }
        if case.autodiff {
            key.push_str(" (autodiff)");
            self.autodiff[0] += 1;
            match verdict {
                Verdict::Pass => self.autodiff[1] += 1,
                Verdict::Rejected { reason } if reason.starts_with(crate::joint::AUTODIFF_REJECTION) => {
                    self.autodiff[2] += 1
                }
                Verdict::Rejected { .. } => self.autodiff[3] += 1,
                _ => {}
            }
        }
        let slot = self.per_pipeline.entry(key).or_default();
        match verdict {
            Verdict::Pass => {
                self.passed += 1;
                slot[0] += 1;
            }
            Verdict::Rejected { reason } => {
                self.rejected += 1;
                slot[1] += 1;
                self.rejections.entry(reason.clone()).or_insert((0, case.seed)).0 += 1;
            }
            Verdict::Noise { rel_err } => {
                self.noise += 1;
                // The first few, and the first fused-only ones (oracle::FUSED_ONLY_TAG).
                let fused_only = rel_err.starts_with(crate::oracle::FUSED_ONLY_TAG);
                if self.noise_cases.len() < 12 || (fused_only && self.noise_cases.len() < 40) {
                    let ad = if case.autodiff { " autodiff" } else { "" };
                    let label = format!("{} {}{ad}", case.pipeline.label(), case.pipeline.fusion_label());
                    self.noise_cases.push((case.seed, label, rel_err.chars().take(160).collect()));
                }
                slot[2] += 1;
            }
            Verdict::Found(f) => {
                self.found += 1;
                slot[3] += 1;
                let entry = self.findings.entry(f.signature()).or_insert_with(|| FoundCase {
                    finding: f.clone(),
                    first_seed: case.seed,
                    pipeline: match case.autodiff {
                        true => format!("{} (autodiff)", case.pipeline.text()),
                        false => case.pipeline.text(),
                    },
                    seeds: Vec::new(),
                    cases: 0,
                    shrunk: None,
                    test_path: None,
                });
                entry.cases += 1;
                if entry.seeds.len() < 8 {
                    entry.seeds.push(case.seed);
                }
            }
        }
    }
}

/// Checks one case under the watchdog; the verdict, the lowered communication ops and what
/// the lowered program's fused regions hold.
pub fn run_case(case: &Case, oracle: &OracleOptions, limit: Duration) -> (Verdict, Lowered) {
    let (c, o) = (case.clone(), oracle.clone());
    match guarded(limit, move || check_case(&c, &o)) {
        Ok(outcome) => (outcome.verdict, Lowered { ops: outcome.lowered_ops, fused: outcome.fused }),
        Err(f) => (Verdict::Found(f), Default::default()),
    }
}

/// What a case lowered to ([`crate::oracle::Outcome`]).
#[derive(Clone, Debug, Default)]
pub struct Lowered {
    pub ops: std::collections::BTreeSet<String>,
    pub fused: std::collections::BTreeSet<String>,
}

/// Runs the campaign; `progress` is called after every case with the stats so far.
pub fn run(cfg: &CampaignConfig, progress: &mut dyn FnMut(&Stats)) -> Stats {
    crate::watchdog::install_quiet_panic_hook();
    let mut stats = Stats::default();
    let start = Instant::now();
    let mut seed = cfg.first_seed;
    loop {
        if cfg.count.is_some_and(|n| stats.cases >= n) || cfg.duration.is_some_and(|d| start.elapsed() >= d) {
            break;
        }
        if leaked_threads() >= cfg.max_hangs.max(1) {
            eprintln!("fuser-lowerfuzz: stopping: {} cases hung", leaked_threads());
            break;
        }
        let case = generate(seed, &cfg.generator);
        stats.coverage.record_case(&case);
        let t = Instant::now();
        let (verdict, lowered) = run_case(&case, &cfg.oracle, cfg.case_timeout);
        stats.check_time += t.elapsed();
        stats.coverage.record_lowered(&lowered.ops);
        stats.coverage.record_fused(&lowered.fused, matches!(verdict, Verdict::Pass));
        if matches!(verdict, Verdict::Pass) {
            stats.coverage.record_passed(&case);
        }
        let new_signature = verdict.finding().is_some_and(|f| !stats.findings.contains_key(&f.signature()));
        stats.record(&case, &verdict);
        if new_signature && let (Some(limits), Some(f)) = (cfg.shrink, verdict.finding()) {
            let t = Instant::now();
            shrink_and_save(cfg, limits, &case, f, &mut stats);
            stats.shrink_time += t.elapsed();
        }
        progress(&stats);
        seed = seed.wrapping_add(1);
    }
    stats
}

fn shrink_and_save(cfg: &CampaignConfig, limits: ShrinkLimits, case: &Case, f: &Finding, stats: &mut Stats) {
    let mut check = |c: &Case| run_case(c, &cfg.oracle, cfg.case_timeout).0;
    let shrunk = shrink(case, f, limits, &mut check);
    let path = cfg.out_dir.as_ref().and_then(|dir| {
        write_regression_test(dir, &shrunk.case, &shrunk.finding, case.seed)
            .map_err(|e| eprintln!("fuser-lowerfuzz: cannot write the regression test: {e}"))
            .ok()
    });
    if let Some(entry) = stats.findings.get_mut(&f.signature()) {
        entry.shrunk = Some(shrunk);
        entry.test_path = path;
    }
}

/// The pipeline labels a run did not hit (for coverage checks).
pub fn missing_pipelines(stats: &Stats) -> Vec<&'static str> {
    Pipeline::LABELS.iter().copied().filter(|l| stats.coverage.count("pipeline", l) == 0).collect()
}
