//! Which library the cuda backend's GEMMs go through (`fuser-run --gemm`): cuBLASLt (bias,
//! GELU and residual epilogues, heuristic algorithm per problem), cuBLAS's `cublasGemmEx`, or
//! `auto` (the default): per problem, the faster of the two, measured once.
//!
//! `auto` ([`ChoiceCache`]): the first time the process sees a problem on a GPU model (extents,
//! transposes, leading dimensions, element type, epilogue, residual, accumulation, pointer
//! alignments), the GPU that meets it times
//! `cublasGemmEx` (plus the separate epilogue kernels it needs) and up to
//! [`LT_CANDIDATES`] algorithms of cuBLASLt's heuristic (with the epilogue fused where it
//! fits), with CUDA events on the current stream: one warm call, then [`TIMED_REPS`] calls, in
//! [`ROUNDS`] interleaved rounds after a warm-up round, keeping each candidate's median.
//! The fastest is kept for the rest of the process (a candidate must beat the ones before it,
//! `cublasGemmEx` first, by more than [`MARGIN`], so that noise does not flip near-equal choices
//! from run to run; ranks run as threads share it: the first
//! rank to settle a problem decides for all, so replicated values stay identical across them;
//! separate processes measure each on their own); `cublasGemmEx` wins ties, so `auto` is never
//! slower than `--gemm cublas` on a problem (up to the noise of one measurement). A problem first
//! seen while a CUDA graph is being captured is not measured (nothing may synchronize then): it
//! runs through `cublasGemmEx` and is measured at its first eager sight. `FUSER_GEMM_VERBOSE=1`
//! prints each choice with its timings to stderr, once per problem.
//!
//! Why measure: cuBLASLt's first heuristic pick was measured up to 6-7x slower than
//! `cublasGemmEx` on some bf16 shapes with a bias, and differently from run to run (issue 24).
//! Part of that was ours (the alignment preferences were read from a dead temporary, see
//! `cuda/cublaslt.rs`), but a heuristic's first pick has no guarantee of being the fastest, and
//! `cublasGemmEx` plus a separate kernel can win for some epilogues; a measurement per problem
//! costs a few GEMMs once.
//!
//! The choice logic here is plain data (no CUDA), so that it is tested without a GPU; the cuda
//! backend (`cuda/gpu.rs`) supplies the measurement. A plain option, known without the `cuda`
//! feature so that configurations parse everywhere.

use crate::watchdog::lock;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

/// How many of cuBLASLt's heuristic candidates `auto` measures.
pub const LT_CANDIDATES: usize = 4;
/// Timed calls per candidate and round (after one warm call).
pub const TIMED_REPS: usize = 3;
/// Measured rounds per candidate (after one discarded warm-up round); the median is kept.
pub const ROUNDS: usize = 3;

/// The GEMM library of the cuda backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GemmLib {
    /// Per problem the faster of cuBLASLt and `cublasGemmEx`, measured once ([`ChoiceCache`]).
    #[default]
    Auto,
    /// `cublasGemmEx` (a linear's bias is a separate elementwise kernel).
    Cublas,
    /// `cublasLtMatmul` with the heuristic's first algorithm (and the epilogue where it fits);
    /// falls back to `cublasGemmEx` for a problem the heuristic has no algorithm for.
    CublasLt,
}

impl GemmLib {
    /// `auto`, `cublas` or `cublaslt`.
    pub fn parse(s: &str) -> Option<GemmLib> {
        match s {
            "auto" => Some(GemmLib::Auto),
            "cublas" => Some(GemmLib::Cublas),
            "cublaslt" => Some(GemmLib::CublasLt),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GemmLib::Auto => "auto",
            GemmLib::Cublas => "cublas",
            GemmLib::CublasLt => "cublaslt",
        }
    }
}

/// One way to run a GEMM: `cublasGemmEx` (its epilogue as separate kernels) or cuBLASLt with
/// candidate `i` of its heuristic (the epilogue fused where it fits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmPath {
    GemmEx,
    Lt(usize),
}

impl std::fmt::Display for GemmPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GemmPath::GemmEx => write!(f, "cublasGemmEx"),
            GemmPath::Lt(i) => write!(f, "cublasLt#{i}"),
        }
    }
}

/// The measured candidates of one problem: milliseconds per call, `None` where the candidate
/// failed to run (it is then never chosen).
pub type Timings = Vec<(GemmPath, Option<f32>)>;

/// A later candidate replaces the best so far only when it is faster by more than this
/// fraction: measurement noise between near-equal candidates then does not flip the choice from
/// run to run (it stays with `cublasGemmEx`, then with the heuristic's earlier picks).
pub const MARGIN: f32 = 0.03;

/// The fastest candidate of `timings`, in their order (`cublasGemmEx` first): one replaces the
/// best so far only when faster by more than [`MARGIN`]; `cublasGemmEx` is the answer when
/// nothing else was measured. Failed (`None`) and non-finite timings never win.
pub fn fastest(timings: &[(GemmPath, Option<f32>)]) -> GemmPath {
    let ex = timings.iter().find(|(p, _)| *p == GemmPath::GemmEx).and_then(|(_, t)| *t).filter(|t| t.is_finite());
    let mut best = (GemmPath::GemmEx, ex);
    for &(path, t) in timings {
        let Some(t) = t.filter(|t| t.is_finite()) else { continue };
        if best.1.is_none_or(|b| t < b * (1.0 - MARGIN)) {
            best = (path, Some(t));
        }
    }
    best.0
}

/// Measures `cublasGemmEx` and the `lt_candidates` cuBLASLt candidates with `measure`
/// (milliseconds per call). A failing cuBLASLt candidate is skipped; a failing
/// `cublasGemmEx` is an error (it is the path every other falls back to).
///
/// The candidates are measured in [`ROUNDS`] interleaved rounds after a discarded warm-up round
/// (GemmEx, Lt(0), Lt(1), ..., then again), and each keeps the median of its rounds: a clock
/// that ramps up or a neighbour's burst while one candidate runs then does not decide the
/// choice (one measurement per candidate once picked a candidate 10% slower than the
/// heuristic's first on a 2048x36864x12288 GEMM on the H200).
pub fn measure_all<E>(
    lt_candidates: usize,
    mut measure: impl FnMut(GemmPath) -> Result<f32, E>,
) -> Result<(GemmPath, Timings), E> {
    let paths: Vec<GemmPath> = std::iter::once(GemmPath::GemmEx).chain((0..lt_candidates).map(GemmPath::Lt)).collect();
    // None: the candidate failed once and is measured no more.
    let mut samples: Vec<Option<Vec<f32>>> = vec![Some(Vec::new()); paths.len()];
    for round in 0..=ROUNDS {
        for (path, got) in paths.iter().zip(samples.iter_mut()) {
            let Some(times) = got else { continue };
            match measure(*path) {
                Ok(t) if round > 0 => times.push(t),
                Ok(_) => {}
                Err(e) if *path == GemmPath::GemmEx => return Err(e),
                Err(_) => *got = None,
            }
        }
    }
    let timings: Timings = paths.into_iter().zip(samples).map(|(p, s)| (p, s.and_then(median))).collect();
    Ok((fastest(&timings), timings))
}

/// The median of `times` (the lower middle one of an even count); `None` when empty.
fn median(mut times: Vec<f32>) -> Option<f32> {
    times.sort_by(f32::total_cmp);
    times.get(times.len().saturating_sub(1) / 2).copied()
}

/// The one line `FUSER_GEMM_VERBOSE=1` prints for a problem.
pub fn describe_choice(problem: &str, chosen: GemmPath, timings: &[(GemmPath, Option<f32>)]) -> String {
    let parts: Vec<String> = timings
        .iter()
        .map(|(p, t)| match t {
            Some(t) => format!("{p} {:.1} us", t * 1000.0),
            None => format!("{p} failed"),
        })
        .collect();
    format!("fuser: gemm auto: {problem}: {chosen} ({})", parts.join(", "))
}

/// What [`ChoiceCache::decide`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// The cached choice of a problem seen before.
    Cached(GemmPath),
    /// Measured now: the timings and what they picked; `chosen` is what the cache holds (the
    /// pick, unless another thread settled the problem first, whose answer then stands).
    Measured { chosen: GemmPath, picked: GemmPath, timings: Timings },
    /// Seen first during a graph capture: `cublasGemmEx`, not cached.
    Capturing,
}

impl Decision {
    pub fn path(&self) -> GemmPath {
        match self {
            Decision::Cached(p) | Decision::Measured { chosen: p, .. } => *p,
            Decision::Capturing => GemmPath::GemmEx,
        }
    }
}

/// `auto`'s choices, per problem key, shared by every GPU of the process (keys name the GPU
/// model), so that ranks run as threads take the same algorithm for the same problem.
#[derive(Debug)]
pub struct ChoiceCache<K> {
    choices: HashMap<K, GemmPath>,
}

impl<K> Default for ChoiceCache<K> {
    fn default() -> Self {
        ChoiceCache { choices: HashMap::new() }
    }
}

impl<K: Hash + Eq + Clone> ChoiceCache<K> {
    /// The cached choice of `key`.
    pub fn get(&self, key: &K) -> Option<GemmPath> {
        self.choices.get(key).copied()
    }

    /// Keeps `path` for `key` unless `key` has a choice already; returns the one kept (the first
    /// settled stands, so every user of the cache runs one path per problem).
    pub fn settle(&mut self, key: K, path: GemmPath) -> GemmPath {
        *self.choices.entry(key).or_insert(path)
    }

    /// The number of problems decided so far.
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    /// The path of `key`: cached, or (outside a capture) measured through [`measure_all`] and
    /// settled, or `cublasGemmEx` uncached during a capture. The cache is locked only to look
    /// up and to settle, never while measuring: a measurement waits for the GPU, whose earlier
    /// work may wait for another rank's thread (a collective), which must not wait for this
    /// lock. `capturing` and `lt_candidates` are asked only on a miss.
    pub fn decide<E>(
        cache: &Mutex<Self>,
        key: &K,
        capturing: impl FnOnce() -> Result<bool, E>,
        lt_candidates: impl FnOnce() -> Result<usize, E>,
        measure: impl FnMut(GemmPath) -> Result<f32, E>,
    ) -> Result<Decision, E> {
        if let Some(p) = lock(cache).get(key) {
            return Ok(Decision::Cached(p));
        }
        if capturing()? {
            return Ok(Decision::Capturing);
        }
        let (picked, timings) = measure_all(lt_candidates()?, measure)?;
        let chosen = lock(cache).settle(key.clone(), picked);
        Ok(Decision::Measured { chosen, picked, timings })
    }
}

/// Whether `FUSER_GEMM_VERBOSE=1` asks for the choices on stderr.
pub fn verbose() -> bool {
    std::env::var_os("FUSER_GEMM_VERBOSE").is_some_and(|v| v == "1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for l in [GemmLib::Auto, GemmLib::Cublas, GemmLib::CublasLt] {
            assert_eq!(GemmLib::parse(l.name()), Some(l));
        }
        assert_eq!(GemmLib::parse("cutlass"), None);
    }

    #[test]
    fn the_fastest_wins_and_gemmex_wins_ties() {
        use GemmPath::*;
        assert_eq!(fastest(&[(GemmEx, Some(1.0)), (Lt(0), Some(6.0)), (Lt(1), Some(0.8))]), Lt(1));
        assert_eq!(fastest(&[(GemmEx, Some(1.0)), (Lt(0), Some(1.0))]), GemmEx);
        assert_eq!(fastest(&[(Lt(0), Some(1.0)), (GemmEx, Some(1.0))]), GemmEx);
        // Within the margin the earlier candidate stays: noise does not flip the choice.
        assert_eq!(fastest(&[(GemmEx, Some(1.0)), (Lt(0), Some(0.98))]), GemmEx);
        assert_eq!(fastest(&[(GemmEx, Some(1.0)), (Lt(0), Some(0.9)), (Lt(1), Some(0.89))]), Lt(0));
        assert_eq!(fastest(&[(GemmEx, Some(1.0)), (Lt(0), Some(0.98)), (Lt(1), Some(0.95))]), Lt(1));
        // Failed or nonsensical measurements are never chosen.
        assert_eq!(fastest(&[(GemmEx, Some(1.0)), (Lt(0), None), (Lt(1), Some(f32::NAN))]), GemmEx);
        assert_eq!(fastest(&[]), GemmEx);
    }

    #[test]
    fn measuring_skips_failing_lt_candidates_but_not_gemmex() {
        let fake = |p: GemmPath| -> Result<f32, String> {
            match p {
                GemmPath::GemmEx => Ok(1.0),
                GemmPath::Lt(0) => Ok(5.98),
                GemmPath::Lt(1) => Err("no".into()),
                GemmPath::Lt(i) => Ok(0.5 + i as f32 * 0.1),
            }
        };
        let (path, timings) = measure_all(4, fake).unwrap();
        assert_eq!(path, GemmPath::Lt(2));
        assert_eq!(timings.len(), 5);
        assert_eq!(timings[2], (GemmPath::Lt(1), None));
        assert!(measure_all(2, |_| Err::<f32, _>("gemmex broke")).is_err());
        // No cuBLASLt candidate: cublasGemmEx.
        assert_eq!(measure_all(0, |_| Ok::<_, ()>(2.0)).unwrap().0, GemmPath::GemmEx);
        // One lucky measurement does not decide: Lt(1) is fast once (and in the discarded
        // warm-up round), slow in the others; its median loses to Lt(0).
        let mut seen = [0usize; 3];
        let noisy = |p: GemmPath| -> Result<f32, ()> {
            let i = match p {
                GemmPath::GemmEx => 0,
                GemmPath::Lt(i) => i + 1,
            };
            seen[i] += 1;
            Ok(match (i, seen[i]) {
                (0, _) => 1.0,
                (1, _) => 0.9,
                (_, 1 | 2) => 0.5,
                _ => 1.2,
            })
        };
        let (path, timings) = measure_all(2, noisy).unwrap();
        assert_eq!(path, GemmPath::Lt(0));
        assert_eq!(timings[2], (GemmPath::Lt(1), Some(1.2)));
        assert_eq!(seen, [ROUNDS + 1; 3]);
    }

    #[test]
    fn a_problem_is_measured_once_and_never_during_a_capture() {
        let cache = Mutex::new(ChoiceCache::<(usize, usize, usize)>::default());
        let mut calls = 0;
        let key = (2048, 12288, 12288);
        // First sight during a capture: cublasGemmEx, nothing measured or cached.
        let d = ChoiceCache::decide(
            &cache,
            &key,
            || Ok::<_, ()>(true),
            || Ok(4),
            |_| {
                calls += 1;
                Ok(1.0)
            },
        )
        .unwrap();
        assert_eq!((d, calls, lock(&cache).len()), (Decision::Capturing, 0, 0));
        // First eager sight: measured (cublasGemmEx and four candidates), the fastest kept.
        let timing = |p: GemmPath| match p {
            GemmPath::GemmEx => 1.0,
            GemmPath::Lt(0) => 5.98,
            GemmPath::Lt(i) => 0.7 + i as f32 * 0.1,
        };
        let d = ChoiceCache::decide(
            &cache,
            &key,
            || Ok::<_, ()>(false),
            || Ok(4),
            |p| {
                calls += 1;
                Ok(timing(p))
            },
        )
        .unwrap();
        assert_eq!(d.path(), GemmPath::Lt(1));
        assert!(matches!(d, Decision::Measured { picked: GemmPath::Lt(1), .. }));
        assert_eq!(calls, 5 * (ROUNDS + 1));
        // Later sights (also during a capture) reuse it without measuring or asking.
        for capturing in [false, true] {
            let d = ChoiceCache::decide(
                &cache,
                &key,
                || -> Result<bool, ()> { panic!("asked") },
                || Ok(4),
                |_| {
                    calls += 1;
                    Ok(0.0)
                },
            )
            .unwrap();
            assert_eq!(d, Decision::Cached(GemmPath::Lt(1)), "{capturing}");
        }
        assert_eq!(calls, 5 * (ROUNDS + 1));
        // Another problem is measured on its own.
        let other = (8192, 16384, 16384);
        let d = ChoiceCache::decide(&cache, &other, || Ok::<_, ()>(false), || Ok(0), |_| Ok(3.0)).unwrap();
        assert_eq!(d.path(), GemmPath::GemmEx);
        assert_eq!(lock(&cache).len(), 2);
    }

    #[test]
    fn the_first_settled_choice_stands_for_every_thread() {
        let cache = Mutex::new(ChoiceCache::<u32>::default());
        // Two ranks measured the same problem at once; one settles first.
        assert_eq!(lock(&cache).settle(7, GemmPath::Lt(2)), GemmPath::Lt(2));
        assert_eq!(lock(&cache).settle(7, GemmPath::GemmEx), GemmPath::Lt(2));
        // A measurement finishing after another thread settled takes the settled path.
        let d = ChoiceCache::decide(
            &cache,
            &8,
            || Ok::<_, ()>(false),
            || Ok(1),
            |p| {
                if p == GemmPath::GemmEx {
                    // Meanwhile another thread settles problem 8.
                    lock(&cache).settle(8, GemmPath::GemmEx);
                }
                Ok(if p == GemmPath::GemmEx { 2.0 } else { 1.0 })
            },
        )
        .unwrap();
        assert!(matches!(d, Decision::Measured { chosen: GemmPath::GemmEx, picked: GemmPath::Lt(0), .. }));
    }

    #[test]
    fn the_verbose_line_names_the_choice_and_every_timing() {
        let line = describe_choice(
            "bf16 12288x2048x12288",
            GemmPath::GemmEx,
            &[(GemmPath::GemmEx, Some(1.0)), (GemmPath::Lt(0), Some(5.98)), (GemmPath::Lt(1), None)],
        );
        assert_eq!(
            line,
            "fuser: gemm auto: bf16 12288x2048x12288: cublasGemmEx (cublasGemmEx 1000.0 us, cublasLt#0 5980.0 us, \
             cublasLt#1 failed)"
        );
    }
}
