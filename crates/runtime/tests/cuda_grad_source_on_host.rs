//! The CUDA C of the backward kernels (`src/cuda/ops/grad.cu`: `sdpa_grad`, `embedding_grad`,
//! `one_hot` and the accumulation helpers) compiled for the host with a C++ compiler and shims
//! (CUDA's intrinsics; atomics as plain adds, since the grid's blocks and threads run one after
//! the other), on shapes with grouped-query heads, the causal mask, more queries than keys, ids
//! and labels out of range, repeated ids, a vocab-parallel origin and the f32 (direct), bf16
//! (f32 scratch, rounded once) and f64 paths; results are compared with
//! `fuser_runtime::ops::grad`, the reference semantics. The GEMM-based `sdpa_grad`
//! (`FUSER_SDPA_GRAD=gemm`) runs too: its plan (`cuda::ops::sdpa_grad_plan`) walked with the
//! source's elementwise kernels and a GEMM of cuBLAS's column-major conventions. Skipped (with
//! a note) when no `c++` with `_Float16` is found; the device runs the real thing (`benches/gpu/transformer.sh` runs
//! `test/Run/ops/{sdpa-grad,embedding-grad,one-hot}.mlir` on the cuda backend with `--check`).
#![cfg(feature = "cuda")]

mod support;

use fuser_runtime::dtype::{DType, round_to};
use fuser_runtime::ops::attention::{SdpaDims, SdpaOptions, sdpa};
use fuser_runtime::ops::grad::{SdpaTensors, embedding_grad, one_hot, sdpa_grad};
use std::fmt::Write as _;

const SOURCE: &str = include_str!("../src/cuda/ops/grad.cu");

/// Beyond `support::SEQUENTIAL_GRID`: the intrinsics the gradient kernels use.
const EXTRA_SHIM: &str = r#"
static float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
template <class T> static T atomicAdd(T* a, T v) { T old = *a; *a = old + v; return old; }
"#;

/// The source with the f16 conversions (inline PTX) replaced by `_Float16` and no `extern "C"`.
fn host_source() -> String {
    let s = SOURCE
        .replace(
            r#"__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }"#,
            "__device__ float f16_to_float(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }",
        )
        .replace(
            r#"__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }"#,
            "__device__ unsigned short float_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }",
        )
        .replace(r#"extern "C" "#, "");
    assert!(!s.contains("asm("), "the f16 conversions of the source changed: update the shims here");
    s
}

/// A deterministic pseudo-random sequence in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// The C type and literal of a value stored as `dt` (bf16 as its bits).
fn c_array(name: &str, dt: DType, xs: &[f64]) -> String {
    let (ty, items): (&str, Vec<String>) = match dt {
        DType::BF16 => {
            ("unsigned short", xs.iter().map(|&x| format!("0x{:04x}", half::bf16::from_f64(x).to_bits())).collect())
        }
        DType::F32 => ("float", xs.iter().map(|&x| c_literal(x, "f")).collect()),
        _ => ("double", xs.iter().map(|&x| c_literal(x, "")).collect()),
    };
    format!(
        "static {ty} {name}[{}] = {{{}}};\n",
        xs.len().max(1),
        if xs.is_empty() { "0".into() } else { items.join(", ") }
    )
}

/// A C float literal (`-INFINITY` for -inf, `NAN` for NaN).
fn c_literal(x: f64, suffix: &str) -> String {
    if x.is_nan() {
        "NAN".into()
    } else if x.is_infinite() {
        format!("{}INFINITY", if x < 0.0 { "-" } else { "" })
    } else {
        format!("{x:e}{suffix}")
    }
}

/// The C statement printing `n` values of `name` (stored as `dt`) as `label v v v`.
fn c_print(label: &str, name: &str, dt: DType, n: usize) -> String {
    let elem = match dt {
        DType::BF16 => format!("(double)bf16_to_float({name}[i])"),
        _ => format!("(double){name}[i]"),
    };
    format!("printf(\"{label}\"); for (int i = 0; i < {n}; i++) printf(\" %.17g\", {elem}); printf(\"\\n\");\n")
}

struct Case {
    dims: SdpaDims,
    causal: bool,
    scale: f64,
    dt: DType,
    /// The global index of the first query row (a piece of a split query sequence).
    offset: usize,
}

/// C code running `fuser_sdpa_grad_*` on the case's inputs, and the expected (dq, dk, dv).
fn sdpa_case(tag: &str, c: &Case, seed: u64) -> (String, [Vec<f64>; 3]) {
    let d = c.dims;
    let r = |xs: Vec<f64>| -> Vec<f64> { xs.iter().map(|&x| round_to(c.dt, x)).collect() };
    let q = r(values(d.b * d.h * d.s * d.d, seed));
    let k = r(values(d.b * d.hkv * d.skv * d.d, seed + 1));
    let v = r(values(d.b * d.hkv * d.skv * d.dv, seed + 2));
    let dout = r(values(d.b * d.h * d.s * d.dv, seed + 3));
    let (out, lse) = sdpa(&q, &k, &v, &d, &SdpaOptions { causal: c.causal, scale: c.scale, query_offset: c.offset });
    let (out, lse) = (r(out), lse.iter().map(|&x| round_to(DType::F32, x)).collect::<Vec<_>>());
    let t = SdpaTensors { q: &q, k: &k, v: &v, out: &out, dout: &dout };
    let (dq, dk, dv) = sdpa_grad(&t, &lse, &d, c.causal, c.scale, c.offset);
    let acc = if c.dt == DType::F64 { "double" } else { "float" };
    let mut s = String::from("{\n");
    for (name, xs) in [("q", &q), ("k", &k), ("v", &v), ("o", &out), ("g", &dout)] {
        s += &c_array(name, c.dt, xs);
    }
    s += &c_array("lse", DType::F32, &lse);
    s += &c_array("dq", c.dt, &vec![-7.0; dq.len()]);
    let (nk, nv) = (dk.len(), dv.len());
    // f32/f64 accumulate into the outputs; bf16 into f32 scratch, then rounded.
    s += &format!("static {acc} dk_acc[{}], dv_acc[{}];\n", nk.max(1), nv.max(1));
    s += &c_array("dk", c.dt, &vec![-7.0; nk]);
    s += &c_array("dv", c.dt, &vec![-7.0; nv]);
    let code = match c.dt {
        DType::BF16 => 0,
        DType::F32 => 2,
        _ => 3,
    };
    let direct = c.dt != DType::BF16;
    let (dka, dva) = if direct { ("dk", "dv") } else { ("dk_acc", "dv_acc") };
    let ad = (c.dt == DType::F64) as i32;
    let _ = write!(
        s,
        "AccParams z{{}}; z.acc=(unsigned long long){dka}; z.n={nk}; z.acc_double={ad}; launch(2, 3, [&]{{ fuser_acc_zero(z); }});\n\
z.acc=(unsigned long long){dva}; z.n={nv}; launch(2, 3, [&]{{ fuser_acc_zero(z); }});\n\
SdpaGradParams p{{}}; p.q=(unsigned long long)q; p.k=(unsigned long long)k; p.v=(unsigned long long)v; p.out=(unsigned long long)o;\n\
p.lse=(unsigned long long)lse; p.dout=(unsigned long long)g; p.dq=(unsigned long long)dq; p.dk_acc=(unsigned long long){dka}; p.dv_acc=(unsigned long long){dva};\n\
p.query_offset={}; p.scale={:e}; p.dtype={code}; p.b={}; p.h={}; p.hkv={}; p.s={}; p.skv={}; p.d={}; p.dv={}; p.causal={};\n\
launch(2, 3, [&]{{ fuser_sdpa_grad_{}(p); }});\n",
        c.offset,
        c.scale,
        d.b,
        d.h,
        d.hkv,
        d.s,
        d.skv,
        d.d,
        d.dv,
        c.causal as i32,
        if c.dt == DType::F64 { "f64" } else { "f32" }
    );
    if !direct {
        let _ = write!(
            s,
            "AccParams st{{}}; st.acc=(unsigned long long)dk_acc; st.out=(unsigned long long)dk; st.n={nk}; st.dtype=0; launch(2, 3, [&]{{ fuser_acc_store(st); }});\n\
st.acc=(unsigned long long)dv_acc; st.out=(unsigned long long)dv; st.n={nv}; launch(2, 3, [&]{{ fuser_acc_store(st); }});\n"
        );
    }
    s += &c_print(&format!("{tag}_dq"), "dq", c.dt, dq.len());
    s += &c_print(&format!("{tag}_dk"), "dk", c.dt, nk);
    s += &c_print(&format!("{tag}_dv"), "dv", c.dt, nv);
    s += "}\n";
    (s, [dq, dk, dv])
}

/// The values printed on the line starting with `label`.
fn line(text: &str, label: &str) -> Vec<f64> {
    let l =
        text.lines().find(|l| l.split(' ').next() == Some(label)).unwrap_or_else(|| panic!("no line {label}:\n{text}"));
    l.split(' ').skip(1).map(|x| x.parse().unwrap()).collect()
}

fn close(what: &str, got: &[f64], want: &[f64], rel: f64, abs: f64) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= abs + rel * w.abs(), "{what}[{i}]: {g} vs {w}");
    }
}

#[test]
fn the_grad_kernels_match_the_reference_semantics_on_the_host() {
    let cases = [
        // Grouped-query, causal, more queries than keys (rows past Skv attend every key).
        (
            "gqa",
            Case {
                dims: SdpaDims { b: 2, h: 4, hkv: 2, s: 6, skv: 5, d: 6, dv: 4 },
                causal: true,
                scale: 0.4,
                dt: DType::F32,
                offset: 0,
            },
        ),
        // The second half of a causal query sequence (global rows 3..6): the mask at global
        // indices.
        (
            "offset",
            Case {
                dims: SdpaDims { b: 1, h: 2, hkv: 2, s: 3, skv: 6, d: 4, dv: 3 },
                causal: true,
                scale: 0.5,
                dt: DType::F32,
                offset: 3,
            },
        ),
        (
            "mha64",
            Case {
                dims: SdpaDims { b: 1, h: 2, hkv: 2, s: 3, skv: 7, d: 5, dv: 3 },
                causal: false,
                scale: 0.5,
                dt: DType::F64,
                offset: 0,
            },
        ),
        (
            "bf16",
            Case {
                dims: SdpaDims { b: 1, h: 2, hkv: 1, s: 4, skv: 4, d: 8, dv: 8 },
                causal: true,
                scale: 0.35,
                dt: DType::BF16,
                offset: 0,
            },
        ),
        // No keys: lse -inf everywhere, every gradient 0.
        (
            "empty",
            Case {
                dims: SdpaDims { b: 1, h: 1, hkv: 1, s: 2, skv: 0, d: 2, dv: 2 },
                causal: false,
                scale: 1.0,
                dt: DType::F32,
                offset: 0,
            },
        ),
    ];
    let mut main = String::from("int main() {\n");
    let mut expected = Vec::new();
    for (i, (tag, c)) in cases.iter().enumerate() {
        let (code, want) = sdpa_case(tag, c, 10 * i as u64 + 1);
        main += &code;
        expected.push((tag, c.dt, want));
    }
    // embedding_grad: a table piece holding global rows 2..5 of 6, width 3; ids with repeats,
    // out-of-range and negative ones; f32 (direct) with i64 ids, bf16 (scratch) with i32 ids.
    let ids: Vec<i64> = vec![3, 2, 7, -1, 3, 4, 0, 3];
    let g = values(ids.len() * 3, 77).iter().map(|&x| round_to(DType::BF16, x)).collect::<Vec<_>>();
    let want_emb = embedding_grad(&ids, &g, 3, 3, 2);
    main += &c_array("eg", DType::F32, &g);
    main += &c_array("egb", DType::BF16, &g);
    let ids_list: Vec<String> = ids.iter().map(i64::to_string).collect();
    let _ = write!(
        main,
        "{{ long long ids[8] = {{{0}}}; int ids32[8] = {{{0}}}; float t[9]; float acc[9]; unsigned short tb[9];\n\
AccParams z{{}}; z.acc=(unsigned long long)t; z.n=9; launch(2, 3, [&]{{ fuser_acc_zero(z); }});\n\
EmbeddingGradParams e{{}}; e.ids=(unsigned long long)ids; e.g=(unsigned long long)eg; e.acc=(unsigned long long)t; e.n_ids=8; e.width=3; e.rows=3; e.first_row=2; e.id_bytes=8; e.dtype=2;\n\
launch(2, 5, [&]{{ fuser_embedding_grad(e); }});\n\
z.acc=(unsigned long long)acc; launch(2, 3, [&]{{ fuser_acc_zero(z); }});\n\
e.ids=(unsigned long long)ids32; e.g=(unsigned long long)egb; e.acc=(unsigned long long)acc; e.id_bytes=4; e.dtype=0;\n\
launch(2, 5, [&]{{ fuser_embedding_grad(e); }});\n\
AccParams st{{}}; st.acc=(unsigned long long)acc; st.out=(unsigned long long)tb; st.n=9; st.dtype=0; launch(2, 3, [&]{{ fuser_acc_store(st); }});\n\
{1}{2}}}\n",
        ids_list.join(", "),
        c_print("emb_f32", "t", DType::F32, 9),
        c_print("emb_bf16", "tb", DType::BF16, 9),
    );
    // one_hot: classes 2..6 of 8 for labels with out-of-range and negative ones.
    let labels: Vec<i64> = vec![2, 5, 7, -1, 8, 3];
    let want_oh = one_hot(&labels, 4, 2);
    let labels_list: Vec<String> = labels.iter().map(i64::to_string).collect();
    let _ = write!(
        main,
        "{{ long long l[6] = {{{}}}; float o[24]; unsigned short ob[24];\n\
OneHotParams h{{}}; h.labels=(unsigned long long)l; h.out=(unsigned long long)o; h.n_labels=6; h.classes=4; h.first_class=2; h.id_bytes=8; h.dtype=2;\n\
launch(2, 5, [&]{{ fuser_one_hot(h); }});\n\
h.out=(unsigned long long)ob; h.dtype=0; launch(3, 4, [&]{{ fuser_one_hot(h); }});\n\
{}{}}}\n",
        labels_list.join(", "),
        c_print("oh_f32", "o", DType::F32, 24),
        c_print("oh_bf16", "ob", DType::BF16, 24),
    );
    main += "return 0;\n}\n";
    let program = format!("{}{EXTRA_SHIM}{}{main}", support::SEQUENTIAL_GRID, host_source());
    let Some(out) = support::compile_and_run("cuda-grad", "grad source", "c++17", &program) else { return };
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "the host program failed: {}", String::from_utf8_lossy(&out.stderr));
    for (tag, dt, want) in &expected {
        for (which, w) in ["dq", "dk", "dv"].iter().zip(want) {
            let got = line(&text, &format!("{tag}_{which}"));
            match dt {
                DType::F64 => close(&format!("{tag} {which}"), &got, w, 1e-12, 1e-13),
                DType::F32 => close(&format!("{tag} {which}"), &got, w, 1e-5, 1e-6),
                // One bf16 rounding of a value accumulated in f32.
                _ => close(&format!("{tag} {which}"), &got, w, 1.0 / 128.0, 1e-3),
            }
        }
    }
    assert!(expected[0].2[1].iter().any(|x| x.abs() > 1e-2), "the sample is not trivial");
    assert!(expected[4].2.iter().all(|x| x.iter().all(|&v| v == 0.0)));
    close("embedding_grad f32", &line(&text, "emb_f32"), &want_emb, 1e-6, 1e-7);
    let want_bf16: Vec<f64> = want_emb.iter().map(|&x| round_to(DType::BF16, x)).collect();
    close("embedding_grad bf16", &line(&text, "emb_bf16"), &want_bf16, 1.0 / 128.0, 1e-3);
    assert!(want_emb[..3].iter().any(|&x| x != 0.0) && want_emb[3..6].iter().any(|&x| x != 0.0));
    assert_eq!(line(&text, "oh_f32"), want_oh);
    assert_eq!(line(&text, "oh_bf16"), want_oh);
}

/// A column-major strided-batched GEMM as cuBLAS documents `cublasGemmStridedBatchedEx`
/// (`C_i = alpha op(A_i) op(B_i) + beta C_i`, element `(r, c)` of a matrix at `r + c * ld`,
/// `op = T` reading `(c, r)`; C not read when `beta = 0`), summing in double and storing
/// through the source's `store_float` (one rounding to C's type).
const HOST_GEMM: &str = r#"
static void gemm_sb(int ta, int tb, long long m, long long n, long long k, double alpha,
    unsigned long long A, int at, long long lda, long long sa, unsigned long long B, int bt, long long ldb, long long sb,
    double beta, unsigned long long C, int ct, long long ldc, long long sc, long long batch) {
  for (long long bi = 0; bi < batch; bi++) for (long long col = 0; col < n; col++) for (long long row = 0; row < m; row++) {
    double sum = 0;
    for (long long l = 0; l < k; l++) {
      double x = ta ? load_float(A, at, bi * sa + l + row * lda) : load_float(A, at, bi * sa + row + l * lda);
      double y = tb ? load_float(B, bt, bi * sb + col + l * ldb) : load_float(B, bt, bi * sb + l + col * ldb);
      sum += x * y;
    }
    long long i = bi * sc + row + col * ldc;
    store_float(C, ct, i, alpha * sum + (beta == 0.0 ? 0.0 : beta * load_float(C, ct, i)));
  }
}
"#;

/// The C array name of a plan buffer.
fn plan_buf_name(b: fuser_runtime::cuda::ops::sdpa_grad_plan::PlanBuf) -> &'static str {
    use fuser_runtime::cuda::ops::sdpa_grad_plan::PlanBuf as B;
    match b {
        B::Q => "q",
        B::K => "k",
        B::V => "v",
        B::Out => "o",
        B::Lse => "lse",
        B::Dout => "g",
        B::Dq => "dq",
        B::DkAcc => "dk_acc",
        B::DvAcc => "dv_acc",
        B::Delta => "delta",
        B::Scores => "scores",
        B::Probs => "probs",
    }
}

/// C code walking the GEMM-based plan of the case (chunks of at most `budget` scratch bytes)
/// with the source's elementwise kernels and [`HOST_GEMM`], and the expected (dq, dk, dv).
fn plan_case(tag: &str, c: &Case, budget: usize, seed: u64) -> (String, [Vec<f64>; 3], usize) {
    use fuser_runtime::cuda::ops::sdpa_grad_plan::{Plan, PlanBuf as B, Step};
    let d = c.dims;
    let r = |xs: Vec<f64>| -> Vec<f64> { xs.iter().map(|&x| round_to(c.dt, 2.0 * x)).collect() };
    let q = r(values(d.b * d.h * d.s * d.d, seed));
    let k = r(values(d.b * d.hkv * d.skv * d.d, seed + 1));
    let v = r(values(d.b * d.hkv * d.skv * d.dv, seed + 2));
    let dout = r(values(d.b * d.h * d.s * d.dv, seed + 3));
    let (out, mut lse) =
        sdpa(&q, &k, &v, &d, &SdpaOptions { causal: c.causal, scale: c.scale, query_offset: c.offset });
    let out: Vec<f64> = out.iter().map(|&x| round_to(c.dt, x)).collect();
    // A row that attended nothing.
    lse[1] = f64::NEG_INFINITY;
    let lse: Vec<f64> = lse.iter().map(|&x| round_to(DType::F32, x)).collect();
    let t = SdpaTensors { q: &q, k: &k, v: &v, out: &out, dout: &dout };
    let (dq, dk, dv) = sdpa_grad(&t, &lse, &d, c.causal, c.scale, c.offset);
    let plan = Plan::new(&d, c.causal, c.scale, c.offset, c.dt, budget).unwrap();
    let mut s = String::from("{\n");
    for (name, xs) in [("q", &q), ("k", &k), ("v", &v), ("o", &out), ("g", &dout)] {
        s += &c_array(name, c.dt, xs);
    }
    s += &c_array("lse", DType::F32, &lse);
    // Garbage where the plan writes before it reads.
    for b in [B::Dq, B::DkAcc, B::DvAcc, B::Delta, B::Scores, B::Probs] {
        s += &c_array(plan_buf_name(b), plan.buf_type(b), &vec![f64::NAN; plan.buf_len(b)]);
    }
    let code = |t: DType| fuser_runtime::cuda::kernels::dtype_code(t);
    let suffix = if plan.acc == DType::F64 { "f64" } else { "f32" };
    let _ = write!(
        s,
        "SdpaGradEwParams e{{}}; e.scores=(unsigned long long)scores; e.probs=(unsigned long long)probs; \
e.lse=(unsigned long long)lse; e.delta=(unsigned long long)delta; e.out=(unsigned long long)o; e.dout=(unsigned long long)g;\n\
e.query_offset={}; e.scale={:e}; e.dtype={}; e.h={}; e.hkv={}; e.s={}; e.skv={}; e.dv={}; e.causal={};\n",
        c.offset,
        c.scale,
        code(c.dt),
        d.h,
        d.hkv,
        d.s,
        d.skv,
        d.dv,
        c.causal as i32
    );
    for step in &plan.steps {
        match *step {
            Step::Delta => {
                let _ = writeln!(
                    s,
                    "e.count={}; launch(3, 4, [&]{{ fuser_sdpa_grad_delta_{suffix}(e); }});",
                    d.b * d.h * d.s
                );
            }
            Step::Probs { first, count, g, heads } | Step::Ds { first, count, g, heads } => {
                let kind = if matches!(step, Step::Probs { .. }) { "probs" } else { "ds" };
                let _ = writeln!(
                    s,
                    "e.first={first}; e.count={count}; e.g={g}; e.heads={heads}; launch(3, 5, [&]{{ fuser_sdpa_grad_{kind}_{suffix}(e); }});"
                );
            }
            Step::Gemm(ref m) => {
                let o = |x: &fuser_runtime::cuda::ops::sdpa_grad_plan::Operand| {
                    format!(
                        "(unsigned long long)({} + {}), {}, {}, {}",
                        plan_buf_name(x.buf),
                        x.offset,
                        code(plan.buf_type(x.buf)),
                        x.ld,
                        x.stride
                    )
                };
                let _ = writeln!(
                    s,
                    "gemm_sb({}, {}, {}, {}, {}, {:e}, {}, {}, {:e}, {}, {});",
                    m.trans_a as i32,
                    m.trans_b as i32,
                    m.m,
                    m.n,
                    m.k,
                    m.alpha,
                    o(&m.a),
                    o(&m.b),
                    m.beta,
                    o(&m.c),
                    m.batch
                );
            }
        }
    }
    let (nk, nv) = (dk.len(), dv.len());
    if plan.acc_in_scratch() {
        s += &c_array("dk", c.dt, &vec![-7.0; nk]);
        s += &c_array("dv", c.dt, &vec![-7.0; nv]);
        let _ = write!(
            s,
            "AccParams st{{}}; st.acc=(unsigned long long)dk_acc; st.out=(unsigned long long)dk; st.n={nk}; st.dtype={}; launch(2, 3, [&]{{ fuser_acc_store(st); }});\n\
st.acc=(unsigned long long)dv_acc; st.out=(unsigned long long)dv; st.n={nv}; launch(2, 3, [&]{{ fuser_acc_store(st); }});\n",
            code(c.dt)
        );
    } else {
        s += "auto* dk = dk_acc; auto* dv = dv_acc;\n";
    }
    s += &c_print(&format!("{tag}_dq"), "dq", c.dt, dq.len());
    s += &c_print(&format!("{tag}_dk"), "dk", c.dt, nk);
    s += &c_print(&format!("{tag}_dv"), "dv", c.dt, nv);
    s += "}\n";
    (s, [dq, dk, dv], plan.chunk)
}

/// The GEMM-based `sdpa_grad`'s plan (`cuda::ops::sdpa_grad_plan`) walked on the host with the
/// source's `fuser_sdpa_grad_{delta,probs,ds}_*` kernels, a cuBLAS-convention GEMM and
/// `fuser_acc_store`: grouped-query heads (group 1, 2, 8), causal and not, a query offset,
/// `Skv != S`, `Dv != D`, `B > 1`, several chunks (a short last one), a row with `lse = -inf`;
/// f32 (accumulating in the outputs), bf16 (P and dS in bf16, f32 scratch) and f64.
#[test]
fn the_gemm_plan_with_the_kernels_matches_the_reference_on_the_host() {
    let dims = |b, h, hkv, s, skv, d, dv| SdpaDims { b, h, hkv, s, skv, d, dv };
    let case =
        |dims: SdpaDims, causal, dt, offset| Case { dims, causal, scale: 1.0 / (dims.d as f64).sqrt(), dt, offset };
    let cases = [
        // Group 2, causal, more queries than keys, B 2, one pair and one head per step.
        ("p_gqa2", case(dims(2, 4, 2, 6, 5, 6, 4), true, DType::F32, 0), 1),
        // Group 8, causal, the second half of a split sequence, Skv > S, one pair and 3 of its 8
        // heads per step (3, 3, 2).
        ("p_gqa8", case(dims(3, 8, 1, 3, 7, 4, 5), true, DType::F32, 4), 3 * 3 * 7 * 8),
        // MHA, not causal, f64, one chunk.
        ("p_mha64", case(dims(1, 3, 3, 4, 6, 5, 3), false, DType::F64, 0), 1 << 20),
        // bf16, group 2, causal, both heads of a pair per step, one pair per chunk (4 chunks).
        ("p_bf16", case(dims(2, 4, 2, 8, 8, 8, 8), true, DType::BF16, 0), 2 * 8 * 8 * 6),
    ];
    let mut main = String::from("int main() {\n");
    let mut expected = Vec::new();
    for (i, (tag, c, budget)) in cases.iter().enumerate() {
        let (code, want, chunk) = plan_case(tag, c, *budget, 13 * i as u64 + 5);
        assert!(chunk < c.dims.b * c.dims.hkv || *budget == 1 << 20, "{tag}: expected several chunks");
        main += &code;
        expected.push((tag, c.dt, want, c.dims.d));
    }
    main += "return 0;\n}\n";
    let program = format!("{}{EXTRA_SHIM}{}{HOST_GEMM}{main}", support::SEQUENTIAL_GRID, host_source());
    let Some(out) = support::compile_and_run("cuda-grad-plan", "grad source (gemm plan)", "c++17", &program) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "the host program failed: {}", String::from_utf8_lossy(&out.stderr));
    for (tag, dt, want, d) in &expected {
        for (which, w) in ["dq", "dk", "dv"].iter().zip(want) {
            let got = line(&text, &format!("{tag}_{which}"));
            assert!(w.iter().any(|x| x.abs() > 1e-2), "{tag} {which}: a trivial sample");
            if *which == "dq" {
                assert!(got[*d..2 * *d].iter().all(|&x| x == 0.0), "{tag}: the row with lse = -inf has dq = 0");
            }
            match dt {
                DType::F64 => close(&format!("{tag} {which}"), &got, w, 1e-12, 1e-12),
                DType::F32 => close(&format!("{tag} {which}"), &got, w, 1e-5, 1e-5),
                // P and dS rounded to bf16 before their products, then one bf16 rounding.
                _ => close(&format!("{tag} {which}"), &got, w, 2e-2, 2e-2),
            }
        }
    }
}

/// The source compiles with NVRTC as the cuda backend compiles it (`--std=c++17`, a virtual
/// architecture), for sm_80 and sm_90, with every kernel the executors launch in the PTX.
/// Skipped (with a note) where no NVRTC library is found (set `LD_LIBRARY_PATH` to a CUDA 13
/// `lib` folder, e.g. the `nvidia-cuda-nvrtc` wheel's, to run it without a GPU).
#[test]
fn the_grad_source_compiles_with_nvrtc() {
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        eprintln!("skipped: no NVRTC library");
        return;
    }
    assert_eq!(fuser_runtime::cuda::ops::grad::SOURCE, SOURCE);
    for arch in [(8, 0), (9, 0)] {
        let ptx = fuser_runtime::cuda::ops::module::compile("grad", SOURCE, arch)
            .unwrap_or_else(|e| panic!("NVRTC ({arch:?}) refuses the grad source: {}", e.message));
        let fixed = ["sdpa_grad_f32", "sdpa_grad_f64", "embedding_grad", "one_hot", "acc_zero", "acc_store"];
        let mut entries: Vec<String> = fixed.iter().map(|e| format!("fuser_{e}")).collect();
        for kind in ["delta", "probs", "ds"] {
            for acc in ["f32", "f64"] {
                entries.push(format!("fuser_sdpa_grad_{kind}_{acc}"));
            }
        }
        for entry in entries {
            assert!(ptx.contains(&format!(".entry {entry}(")), "{arch:?}: no entry {entry}");
        }
    }
}
