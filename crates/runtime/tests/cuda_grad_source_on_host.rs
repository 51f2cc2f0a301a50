//! The CUDA C of the backward kernels (`src/cuda/ops/grad.cu`: `sdpa_grad`, `embedding_grad`,
//! `one_hot` and the accumulation helpers) compiled for the host with a C++ compiler and shims
//! (CUDA's intrinsics; atomics as plain adds, since the grid's blocks and threads run one after
//! the other), on shapes with grouped-query heads, the causal mask, more queries than keys, ids
//! and labels out of range, repeated ids, a vocab-parallel origin and the f32 (direct), bf16
//! (f32 scratch, rounded once) and f64 paths; results are compared with
//! `fuser_runtime::ops::grad`, the reference semantics. Skipped (with a note) when no `c++` with
//! `_Float16` is found; the device runs the real thing (`benches/gpu/transformer.sh` runs
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

/// A C float literal (`-INFINITY` for -inf).
fn c_literal(x: f64, suffix: &str) -> String {
    if x.is_infinite() { format!("{}INFINITY", if x < 0.0 { "-" } else { "" }) } else { format!("{x:e}{suffix}") }
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
