//! The CUDA C the fused-region code generator writes (`cuda::fused::codegen`), compiled for the
//! host with a C++ compiler and shims (a block's threads as host threads with one barrier for
//! `__syncthreads` and for `__shfl_xor_sync`, exchanged through memory; the blocks one after
//! the other, fewer of them than the plan asks so the grid-stride loops wrap), run on random
//! inputs and compared with `fused::eval::evaluate`, the cpu's semantics: pointwise add (f32
//! with an odd width, bf16 vectorized, a padded-row input gathered), gelu_tanh(x + bias) with a
//! stride-0 bias view, bias + dropout + residual (the keep mask bit-identical, at an origin of
//! a larger tensor, aligned and not aligned to the groups of 4 Philox words), softmax rows (4 threads per row, 32 rows per block, and several warps
//! and items per row with a partial last item), softmax + dropout, layer_norm expanded into
//! primitives with mean and rstd outputs (bf16 vectorized with padded rows, f32 with a
//! transposed input, bf16 with three items per thread and a partial last one), rms_norm
//! (with a broadcast node), in f32 and bf16; rows too long to hold (multi-pass: softmax with
//! and without dropout, layer_norm with partial and whole chunks, rms_norm); and every elementwise kind with NaN, infinities
//! and signed zeros in f32, bf16, f16 and f64. Skipped (with a note)
//! when no `c++` with `_Float16` is found.
#![cfg(feature = "cuda")]

mod fused_cases;
mod support;

use fused_cases as cases;
use fuser_dialects::host::ElementwiseKind as E;
use fuser_runtime::cuda::api::DeviceProps;
use fuser_runtime::cuda::fused::codegen::{self, Operand, Schedule};
use fuser_runtime::dtype::{DType, round_to};
use fuser_runtime::fused::eval::evaluate;
use fuser_runtime::fused::{FusedGraph, Kind};
use fuser_runtime::ops::Dense;
use std::fmt::Write;

const SHIM: &str = r#"
#include <cmath>
#include <math.h>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <barrier>
#include <thread>
#include <vector>
#define __device__
#define __global__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
struct D3{unsigned x;}; D3 blockDim{1}, gridDim{1}, blockIdx{0}; thread_local D3 threadIdx{0};
static std::barrier<>* block_barrier = nullptr;
static void __syncthreads() { block_barrier->arrive_and_wait(); }
// A butterfly exchange among the block's threads (every thread of the block calls it).
template <class T> static T __shfl_xor_sync(unsigned, T v, int o) {
  static T slots[1024];
  slots[threadIdx.x] = v; block_barrier->arrive_and_wait();
  T r = slots[threadIdx.x ^ (unsigned)o]; block_barrier->arrive_and_wait();
  return r;
}
// Runs f as `blocks` blocks of `threads` threads (blocks in turn, a block's threads at once).
template <class F> static void launch(unsigned blocks, unsigned threads, F f) {
  gridDim.x = blocks; blockDim.x = threads;
  for (unsigned b = 0; b < blocks; ++b) {
    blockIdx.x = b;
    std::barrier<> bar(threads); block_barrier = &bar;
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < threads; ++t) ts.emplace_back([&, t] { threadIdx.x = t; f(); });
    for (auto& t : ts) t.join();
  }
}
static float __uint_as_float(unsigned u){float f; memcpy(&f,&u,4); return f;}
static unsigned __float_as_uint(float f){unsigned u; memcpy(&u,&f,4); return u;}
static float __int_as_float(int u){float f; memcpy(&f,&u,4); return f;}
static double __longlong_as_double(long long u){double f; memcpy(&f,&u,8); return f;}
static long long __double_as_longlong(double f){long long u; memcpy(&u,&f,8); return u;}
static float __double2float_rz(double v){ float f=(float)v; if (std::isfinite(v) && std::fabs((double)f)>std::fabs(v)) f=std::nextafter(f,0.0f); return f;}
static float rsqrtf(float x){ return 1.0f / sqrtf(x); }
static double rsqrt(double x){ return 1.0 / sqrt(x); }
static float bits_f32(unsigned u){ return __uint_as_float(u); }
static double bits_f64(unsigned long long u){ double f; memcpy(&f,&u,8); return f; }
"#;

/// Device properties small enough for host threads: at most 128 threads per block, 2 SMs.
const PROPS: DeviceProps =
    DeviceProps { sm_count: 2, max_threads_per_block: 128, max_threads_per_sm: 256, max_shared_per_block: 49152 };

/// A deterministic generator of values in [-2, 2).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
    }
}

/// A host buffer seen as an operand: storage, the view's offset and strides.
struct HostIn {
    dtype: DType,
    storage: Vec<f64>,
    ints: Vec<i64>,
    offset: usize,
    strides: Vec<usize>,
}

impl HostIn {
    /// Random values of `dtype` for a view of `shape` with `strides` at `offset` (the storage
    /// holds the farthest element).
    fn random(rng: &mut Rng, dtype: DType, shape: &[usize], strides: &[usize], offset: usize) -> HostIn {
        let reach: usize = shape.iter().zip(strides).map(|(e, s)| e.saturating_sub(1) * s).sum();
        let len = offset + reach + 1;
        let storage = (0..len).map(|_| round_to(dtype, rng.next())).collect();
        HostIn { dtype, storage, ints: vec![], offset, strides: strides.to_vec() }
    }

    fn dense(rng: &mut Rng, dtype: DType, shape: &[usize]) -> HostIn {
        HostIn::random(rng, dtype, shape, &codegen::row_major(shape), 0)
    }

    fn int(dtype: DType, v: i64) -> HostIn {
        HostIn { dtype, storage: vec![], ints: vec![v], offset: 0, strides: vec![] }
    }

    /// The view's elements, row-major.
    fn gather(&self, shape: &[usize]) -> Dense {
        if !self.ints.is_empty() {
            return Dense::from_i64(self.dtype, shape.to_vec(), self.ints.clone());
        }
        let n: usize = shape.iter().product();
        let vals = (0..n)
            .map(|mut i| {
                let mut off = self.offset;
                for d in (0..shape.len()).rev() {
                    off += (i % shape[d]) * self.strides[d];
                    i /= shape[d];
                }
                self.storage[off]
            })
            .collect();
        Dense::from_f64(self.dtype, shape.to_vec(), vals)
    }
}

/// The C storage type and initializer of a value's bits.
fn c_bits(dtype: DType, v: f64) -> String {
    match dtype {
        DType::BF16 => format!("{}", half::bf16::from_f64(v).to_bits()),
        DType::F16 => format!("{}", half::f16::from_f64(v).to_bits()),
        DType::F32 => format!("{}u", (v as f32).to_bits()),
        DType::F64 => format!("{}ull", v.to_bits()),
        _ => format!("{}", v as i64),
    }
}

fn c_storage(dtype: DType) -> &'static str {
    match dtype {
        DType::BF16 | DType::F16 => "unsigned short",
        DType::F32 => "unsigned",
        DType::F64 => "unsigned long long",
        DType::I1 => "unsigned char",
        DType::I8 => "signed char",
        DType::I16 => "short",
        DType::I32 => "int",
        DType::I64 => "long long",
    }
}

/// The C expression of element `e` of a storage array as a double.
fn c_read(dtype: DType, e: &str) -> String {
    match dtype {
        DType::BF16 => format!("(double)bf16_to_float({e})"),
        DType::F16 => format!("(double)f16_to_float({e})"),
        DType::F32 => format!("(double)bits_f32({e})"),
        DType::F64 => format!("bits_f64({e})"),
        _ => format!("(double)({e})"),
    }
}

/// One case: a graph, its inputs, an origin, the outputs' tolerances (relative, absolute;
/// `(0, 0)`: the same bits, a NaN any NaN).
struct Case {
    name: &'static str,
    graph: FusedGraph,
    inputs: Vec<HostIn>,
    origin: Vec<usize>,
    tols: Vec<(f64, f64)>,
    /// The schedule the plan must choose (checks the intended path is the one exercised).
    expect: Option<Schedule>,
}

/// The namespace of a case: its kernel, its buffers, a runner printing its outputs.
fn program_of(tag: &str, case: &Case) -> String {
    let g = &case.graph;
    let ops: Vec<Operand> = case
        .inputs
        .iter()
        .zip(&g.inputs)
        .map(|(h, i)| Operand {
            dtype: h.dtype,
            strides: if i.kind == Kind::Scalar { vec![] } else { h.strides.clone() },
            aligned16: matches!(i.kind, Kind::Full | Kind::Col) && (h.offset * h.dtype.size()) % 16 == 0,
        })
        .collect();
    let outs: Vec<Operand> =
        g.outputs.iter().map(|&o| Operand::dense(g.nodes[o].dtype, g.shape_of(g.nodes[o].kind))).collect();
    let plan = codegen::plan(g, &ops, &outs, &PROPS).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    if let Some(want) = case.expect {
        assert_eq!(plan.schedule, want, "{}", case.name);
    }
    let src = codegen::source(g, &ops, &outs, &plan.schedule).unwrap().replace("extern \"C\" ", "");
    let mut s = format!("namespace {tag} {{\n{src}\n");
    for (k, h) in case.inputs.iter().enumerate() {
        let vals: Vec<String> = if h.ints.is_empty() {
            h.storage.iter().map(|&v| c_bits(h.dtype, v)).collect()
        } else {
            h.ints.iter().map(|v| format!("{v}")).collect()
        };
        let _ = writeln!(s, "alignas(16) static {} in{k}[] = {{{}}};", c_storage(h.dtype), vals.join(","));
    }
    for (k, &o) in g.outputs.iter().enumerate() {
        let n: usize = g.shape_of(g.nodes[o].kind).iter().product();
        let _ = writeln!(s, "alignas(16) static {} out{k}[{n}];", c_storage(g.nodes[o].dtype));
    }
    let _ = writeln!(s, "void run() {{\n  FusedParams p{{}};");
    for (k, h) in case.inputs.iter().enumerate() {
        let _ = writeln!(s, "  p.a[{k}] = (unsigned long long)(in{k} + {});", h.offset);
    }
    for k in 0..g.outputs.len() {
        let _ = writeln!(s, "  p.a[{}] = (unsigned long long)out{k};", g.inputs.len() + k);
    }
    if !g.global_shape.is_empty() {
        let _ = writeln!(
            s,
            "  p.a[{}] = {}ull;",
            g.inputs.len() + g.outputs.len(),
            codegen::global_offset(g, &case.origin)
        );
    }
    // Fewer blocks than planned: the grid-stride loops wrap.
    let grid = plan.grid.div_ceil(2).max(1);
    let _ = writeln!(s, "  launch({grid}, {}, [&] {{ fuser_fused(p); }});", plan.schedule.block());
    for (k, &o) in g.outputs.iter().enumerate() {
        let n: usize = g.shape_of(g.nodes[o].kind).iter().product();
        let read = c_read(g.nodes[o].dtype, &format!("out{k}[i]"));
        let _ = writeln!(
            s,
            "  printf(\"{tag}_out{k}\"); for (int i = 0; i < {n}; i++) printf(\" %.17g\", {read}); printf(\"\\n\");"
        );
    }
    s.push_str("}\n}\n");
    s
}

fn parse_line(out: &str, tag: &str) -> Vec<f64> {
    let line =
        out.lines().find(|l| l.split_whitespace().next() == Some(tag)).unwrap_or_else(|| panic!("no {tag} in output"));
    line.split_whitespace().skip(1).map(|t| t.parse::<f64>().unwrap()).collect()
}

fn check(case: &Case, tag: &str, out: &str) {
    let g = &case.graph;
    let dense: Vec<Dense> = case.inputs.iter().zip(&g.inputs).map(|(h, i)| h.gather(g.shape_of(i.kind))).collect();
    let want = evaluate(g, &dense, &case.origin).unwrap();
    for (k, w) in want.iter().enumerate() {
        let got = parse_line(out, &format!("{tag}_out{k}"));
        assert_eq!(got.len(), w.len(), "{} output {k}", case.name);
        let (rtol, atol) = case.tols[k];
        let bad: Vec<(usize, f64, f64)> = got
            .iter()
            .zip(w)
            .enumerate()
            .filter(|(_, (g, w))| {
                let close = if rtol == 0.0 && atol == 0.0 {
                    g.to_bits() == w.to_bits()
                } else {
                    g == w || (*g - *w).abs() <= rtol * w.abs() + atol
                };
                !((g.is_nan() && w.is_nan()) || close)
            })
            .map(|(i, (g, w))| (i, *g, *w))
            .collect();
        assert!(
            bad.is_empty(),
            "{} output {k}: {} of {} differ, first (index, got, want): {:?}",
            case.name,
            bad.len(),
            got.len(),
            &bad[..bad.len().min(8)]
        );
    }
}

const BF16_TOL: (f64, f64) = (1.0 / 64.0, 1e-6);
const F32_TOL: (f64, f64) = (1e-5, 1e-6);

fn add_case(name: &'static str, dtype: DType, shape: &[usize], a: HostIn, b: HostIn, expect: Schedule) -> Case {
    // The f32 sum rounded to the type is the f64 sum rounded (unless the exponents differ by
    // more than 16, which these values do not): exact.
    Case {
        name,
        graph: cases::add(dtype, shape),
        inputs: vec![a, b],
        origin: vec![],
        tols: vec![(0.0, 0.0)],
        expect: Some(expect),
    }
}

fn gelu_bias_case(rng: &mut Rng) -> Case {
    let (m, n, t) = (6, 48, DType::BF16);
    // The bias: [n] seen as [m, n] with strides [0, 1].
    let bias = HostIn::random(rng, t, &[m, n], &[0, 1], 0);
    Case {
        name: "gelu_tanh(x + bias)",
        graph: cases::gelu_bias(t, m, n),
        inputs: vec![HostIn::dense(rng, t, &[m, n]), bias],
        origin: vec![],
        tols: vec![BF16_TOL],
        expect: Some(Schedule::Pointwise { vec: 8, block: 128 }),
    }
}

/// bias + dropout + residual of an `[8, 40]` piece at column `col` of a `[24, 48]` tensor: at
/// column 8 every thread's vector of 8 starts a group of 4 Philox words; at column 3 every
/// vector straddles three groups.
fn dropout_case(rng: &mut Rng, name: &'static str, col: usize) -> Case {
    let (m, n, t) = (8, 40, DType::BF16);
    let bias = HostIn::random(rng, t, &[m, n], &[0, 1], 0);
    Case {
        name,
        graph: cases::bias_dropout_residual(t, m, n, 0.3, &[3 * m, n + 8]),
        inputs: vec![
            HostIn::dense(rng, t, &[m, n]),
            bias,
            HostIn::dense(rng, t, &[m, n]),
            HostIn::int(DType::I64, 0x1234_5678_9abc),
            HostIn::int(DType::I64, 77),
        ],
        origin: vec![m, col],
        // The dropout exact: the same mask, x * scale in double rounded once.
        tols: vec![BF16_TOL, (0.0, 0.0)],
        expect: Some(Schedule::Pointwise { vec: 8, block: 128 }),
    }
}

/// softmax over the last axis, optionally followed by a dropout.
fn softmax_case(
    name: &'static str,
    rng: &mut Rng,
    t: DType,
    rows: usize,
    cols: usize,
    dropout: bool,
    expect: Schedule,
) -> Case {
    let mut host = vec![HostIn::dense(rng, t, &[rows, cols])];
    let mut origin = vec![];
    let mut tols = vec![if t == DType::BF16 { BF16_TOL } else { F32_TOL }, (0.0, 0.0)];
    if dropout {
        host.push(HostIn::int(DType::I64, 42));
        host.push(HostIn::int(DType::I32, 5));
        origin = vec![rows, 0];
        tols.push(tols[0]);
    }
    Case { name, graph: cases::softmax(t, rows, cols, dropout), inputs: host, origin, tols, expect: Some(expect) }
}

/// layer_norm over the last axis expanded into primitives; outputs y, mean, rstd.
#[allow(clippy::too_many_arguments)]
fn layer_norm_case(
    name: &'static str,
    t: DType,
    x: HostIn,
    w: HostIn,
    b: HostIn,
    rows: usize,
    cols: usize,
    expect: Schedule,
) -> Case {
    let ytol = if t == DType::BF16 { BF16_TOL } else { (1e-4, 1e-5) };
    Case {
        name,
        graph: cases::layer_norm(t, rows, cols),
        inputs: vec![x, w, b],
        origin: vec![],
        tols: vec![ytol, (1e-5, 1e-6), (1e-4, 1e-6)],
        expect: Some(expect),
    }
}

/// rms_norm with a broadcast node.
fn rms_norm_case(name: &'static str, rng: &mut Rng, t: DType, rows: usize, cols: usize, expect: Schedule) -> Case {
    let ytol = if t == DType::BF16 { BF16_TOL } else { (1e-5, 1e-6) };
    Case {
        name,
        graph: cases::rms_norm(t, rows, cols),
        inputs: vec![HostIn::dense(rng, t, &[rows, cols]), HostIn::dense(rng, t, &[cols])],
        origin: vec![],
        tols: vec![ytol, (1e-5, 1e-6)],
        expect: Some(expect),
    }
}

/// Every elementwise kind in type `t`, with NaN, infinities, signed zeros and equal pairs.
fn elementwise_case(name: &'static str, rng: &mut Rng, t: DType, tol: (f64, f64)) -> Case {
    let (m, n) = (4, 16);
    let mut x = HostIn::dense(rng, t, &[m, n]);
    let mut y = HostIn::dense(rng, t, &[m, n]);
    let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1.0, -1.0];
    for (i, &v) in specials.iter().enumerate() {
        x.storage[3 * i] = v;
        y.storage[3 * i + 1] = v;
    }
    // Equal pairs and zeros of both signs (max/min's sign rule, the comparisons' equality).
    for i in 30..40 {
        y.storage[i] = x.storage[i];
    }
    (x.storage[40], y.storage[40]) = (0.0, -0.0);
    (x.storage[41], y.storage[41]) = (-0.0, 0.0);
    let g = cases::every_elementwise(t, m, n);
    // Selections, signs and comparisons are exact (bit for bit: the sign of a zero too).
    let exact = |k: &E| {
        matches!(
            k,
            E::Max | E::Min | E::Neg | E::Abs | E::Cast | E::Where | E::Eq | E::Ne | E::Lt | E::Le | E::Gt | E::Ge
        )
    };
    let tols: Vec<(f64, f64)> =
        E::ALL.iter().map(|k| if exact(k) { (0.0, 0.0) } else { tol }).chain([tol, tol]).collect();
    let s = HostIn::random(rng, t, &[], &[], 0);
    Case { name, graph: g, inputs: vec![x, y, s], origin: vec![], tols, expect: None }
}

#[test]
fn generated_fused_kernels_compute_the_cpu_semantics_on_the_host() {
    let mut rng = Rng(7);
    let r = &mut rng;
    let (bf, f32t) = (DType::BF16, DType::F32);
    let mut cases = vec![
        add_case(
            "add f32 odd width",
            f32t,
            &[5, 13],
            HostIn::dense(r, f32t, &[5, 13]),
            HostIn::dense(r, f32t, &[5, 13]),
            Schedule::Pointwise { vec: 1, block: 128 },
        ),
        add_case(
            "add bf16 vectorized",
            bf,
            &[16, 64],
            HostIn::dense(r, bf, &[16, 64]),
            HostIn::dense(r, bf, &[16, 64]),
            Schedule::Pointwise { vec: 8, block: 128 },
        ),
        add_case(
            "add bf16 padded rows + transposed",
            bf,
            &[9, 24],
            HostIn::random(r, bf, &[9, 24], &[27, 1], 3),
            HostIn::random(r, bf, &[9, 24], &[1, 9], 0),
            Schedule::Pointwise { vec: 8, block: 128 },
        ),
    ];
    cases.push(elementwise_case("every elementwise kind f32", r, f32t, (1e-5, 1e-6)));
    cases.push(elementwise_case("every elementwise kind bf16", r, bf, BF16_TOL));
    cases.push(elementwise_case("every elementwise kind f16", r, DType::F16, (1.0 / 512.0, 1e-6)));
    cases.push(elementwise_case("every elementwise kind f64", r, DType::F64, (1e-12, 0.0)));
    cases.push(gelu_bias_case(r));
    cases.push(dropout_case(r, "bias + dropout + residual", 8));
    cases.push(dropout_case(r, "bias + dropout + residual, unaligned origin", 3));
    cases.push(softmax_case(
        "softmax f32 sub-warp rows",
        r,
        f32t,
        40,
        40,
        false,
        Schedule::Persistent { vec: 4, threads: 4, items: 3, rows: 32, chunks: 1 },
    ));
    cases.push(softmax_case(
        "softmax bf16 wide rows",
        r,
        bf,
        5,
        1000,
        false,
        Schedule::Persistent { vec: 8, threads: 64, items: 2, rows: 2, chunks: 1 },
    ));
    cases.push(softmax_case(
        "softmax + dropout bf16",
        r,
        bf,
        6,
        96,
        true,
        Schedule::Persistent { vec: 8, threads: 8, items: 2, rows: 16, chunks: 1 },
    ));
    {
        let (rows, cols) = (7, 256);
        let x = HostIn::random(r, bf, &[rows, cols], &[cols + 8, 1], 8);
        let (w, b) = (HostIn::dense(r, bf, &[cols]), HostIn::dense(r, bf, &[cols]));
        cases.push(layer_norm_case(
            "layer_norm bf16 padded rows",
            bf,
            x,
            w,
            b,
            rows,
            cols,
            Schedule::Persistent { vec: 8, threads: 16, items: 2, rows: 8, chunks: 1 },
        ));
        let (rows, cols) = (6, 37);
        let x = HostIn::random(r, f32t, &[rows, cols], &[1, rows], 0);
        let (w, b) = (HostIn::dense(r, f32t, &[cols]), HostIn::dense(r, f32t, &[cols]));
        cases.push(layer_norm_case(
            "layer_norm f32 transposed",
            f32t,
            x,
            w,
            b,
            rows,
            cols,
            Schedule::Persistent { vec: 1, threads: 4, items: 10, rows: 32, chunks: 1 },
        ));
        let (rows, cols) = (3, 1500);
        let x = HostIn::dense(r, f32t, &[rows, cols]);
        let (w, b) = (HostIn::dense(r, f32t, &[cols]), HostIn::dense(r, f32t, &[cols]));
        cases.push(layer_norm_case(
            "layer_norm f32 many warps",
            f32t,
            x,
            w,
            b,
            rows,
            cols,
            Schedule::Persistent { vec: 4, threads: 128, items: 3, rows: 1, chunks: 1 },
        ));
    }
    // Rows longer than 128 threads x 32 elements: several passes over chunks of 2048.
    cases.push(softmax_case(
        "softmax bf16 multi-pass",
        r,
        bf,
        3,
        5000,
        false,
        Schedule::Persistent { vec: 8, threads: 128, items: 2, rows: 1, chunks: 3 },
    ));
    cases.push(softmax_case(
        "softmax + dropout bf16 multi-pass",
        r,
        bf,
        2,
        4104,
        true,
        Schedule::Persistent { vec: 8, threads: 128, items: 2, rows: 1, chunks: 3 },
    ));
    {
        let (rows, cols) = (3, 4500);
        let x = HostIn::random(r, f32t, &[rows, cols], &[cols + 4, 1], 4);
        let (w, b) = (HostIn::dense(r, f32t, &[cols]), HostIn::dense(r, f32t, &[cols]));
        let expect = Schedule::Persistent { vec: 4, threads: 128, items: 4, rows: 1, chunks: 3 };
        cases.push(layer_norm_case("layer_norm f32 multi-pass", f32t, x, w, b, rows, cols, expect));
        let (rows, cols) = (2, 6144);
        let x = HostIn::dense(r, bf, &[rows, cols]);
        let (w, b) = (HostIn::dense(r, bf, &[cols]), HostIn::dense(r, bf, &[cols]));
        let expect = Schedule::Persistent { vec: 8, threads: 128, items: 2, rows: 1, chunks: 3 };
        cases.push(layer_norm_case("layer_norm bf16 multi-pass, whole chunks", bf, x, w, b, rows, cols, expect));
    }
    cases.push(rms_norm_case(
        "rms_norm bf16 multi-pass",
        r,
        bf,
        2,
        4608,
        Schedule::Persistent { vec: 8, threads: 128, items: 2, rows: 1, chunks: 3 },
    ));
    cases.push(rms_norm_case(
        "rms_norm bf16",
        r,
        bf,
        9,
        512,
        Schedule::Persistent { vec: 8, threads: 32, items: 2, rows: 4, chunks: 1 },
    ));
    cases.push(rms_norm_case(
        "rms_norm f32",
        r,
        f32t,
        4,
        100,
        Schedule::Persistent { vec: 4, threads: 8, items: 4, rows: 16, chunks: 1 },
    ));

    let mut program = SHIM.to_string();
    for (i, c) in cases.iter().enumerate() {
        program.push_str(&program_of(&format!("c{i}"), c));
    }
    program.push_str("int main() {\n");
    for i in 0..cases.len() {
        let _ = writeln!(program, "  c{i}::run();");
    }
    program.push_str("  return 0;\n}\n");
    let Some(out) = support::compile_and_run("cuda-fused-host", "generated fused kernels", "c++20", &program) else {
        return;
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = String::from_utf8_lossy(&out.stdout).to_string();
    for (i, c) in cases.iter().enumerate() {
        check(c, &format!("c{i}"), &out);
    }
}
