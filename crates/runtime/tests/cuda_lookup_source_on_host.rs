//! The CUDA C of the lookup kernels (`cuda::ops::lookup::SOURCE`) compiled for the host with a
//! C++ compiler and shims (CUDA's intrinsics; the grid's blocks and threads run one after the
//! other, so the grid-stride loops cover every element exactly once or the sentinel left in
//! the outputs shows): Philox4x32-10 gives Random123's known answers, the embedding gathers
//! held rows bit for bit and zeroes the others, and the dropout of a piece of a tensor is
//! bit-identical to `fuser_runtime::ops::lookup::dropout`, the reference semantics (f32, and
//! bf16 rounded once). Skipped (with a note) when no `c++` with `_Float16` is found.
#![cfg(feature = "cuda")]

mod support;

const LOOKUP_MAIN: &str = r#"
int main(){
  unsigned kat[3][6] = {{0,0,0,0,0,0},{0xffffffffu,0xffffffffu,0xffffffffu,0xffffffffu,0xffffffffu,0xffffffffu},
    {0x243f6a88u,0x85a308d3u,0x13198a2eu,0x03707344u,0xa4093822u,0x299f31d0u}};
  for (int t = 0; t < 3; t++) {
    unsigned ctr[4] = {kat[t][0], kat[t][1], kat[t][2], kat[t][3]}, key[2] = {kat[t][4], kat[t][5]};
    philox4x32_10(ctr, key);
    printf("philox %08x %08x %08x %08x\n", ctr[0], ctr[1], ctr[2], ctr[3]);
  }
  // A 2x3 table holding global rows 2 and 3; ids 3, 2, 1, 4, -1.
  float table[6] = {20, 21, 22, 30, 31, 32}; int ids[5] = {3, 2, 1, 4, -1}; float out[15];
  for (int i = 0; i < 15; i++) out[i] = -7;
  EmbeddingParams e{}; e.table=(unsigned long long)table; e.ids=(unsigned long long)ids; e.out=(unsigned long long)out;
  e.rows=2; e.width=3; e.n_ids=5; e.first_row=2; e.elem_bytes=4; e.id_bytes=4;
  launch(2, 3, [&]{ fuser_embedding(e); });
  printf("embedding"); for (int i = 0; i < 15; i++) printf(" %g", out[i]); printf("\n");
  long long lids[2] = {0x7fffffffffffffffLL, 2}; unsigned short btable[2] = {0x3f80, 0xc000}; unsigned short bout[2] = {0x1111, 0x1111};
  e.table=(unsigned long long)btable; e.ids=(unsigned long long)lids; e.out=(unsigned long long)bout;
  e.rows=2; e.width=1; e.n_ids=2; e.first_row=1; e.elem_bytes=2; e.id_bytes=8;
  launch(2, 3, [&]{ fuser_embedding(e); });
  printf("embedding_bf16 %04x %04x\n", bout[0], bout[1]);
  // Dropout of rows 2..5 (columns 1..4) of an 8x6 tensor, seed 1234, offset 99, p = 0.25: the
  // rows' global indices 13..17, 19..23, 25..29 straddle the groups of 4 of the Philox words.
  long long seed = 1234, off = 99; float x[12], y[12]; unsigned short xb[12], yb[12];
  for (int i = 0; i < 12; i++) { x[i] = 1.0f + 0.1f * i; xb[i] = float_to_bf16(x[i]); y[i] = -7; yb[i] = 0x1111; }
  DropoutParams d{}; d.x=(unsigned long long)x; d.out=(unsigned long long)y; d.seed=(unsigned long long)&seed;
  d.offset=(unsigned long long)&off; d.n=12; d.nd=2; d.shape[0]=3; d.shape[1]=4; d.origin[0]=2; d.origin[1]=1;
  d.gstrides[0]=6; d.gstrides[1]=1; d.p=0.25; d.scale=1.0/(1.0-0.25); d.dtype=2;
  // 2 threads of 4 elements: the grid-stride loop takes two steps, the second one partial.
  launch(1, 2, [&]{ fuser_dropout(d); });
  printf("dropout_f32"); for (int i = 0; i < 12; i++) printf(" %08x", __float_as_uint(y[i])); printf("\n");
  d.x=(unsigned long long)xb; d.out=(unsigned long long)yb; d.dtype=0;
  launch(2, 3, [&]{ fuser_dropout(d); });
  printf("dropout_bf16"); for (int i = 0; i < 12; i++) printf(" %04x", yb[i]); printf("\n");
  return 0;
}
"#;

#[test]
fn the_lookup_kernels_match_the_reference_semantics_on_the_host() {
    use fuser_runtime::dtype::DType;
    use fuser_runtime::numerics::round_float;
    use fuser_runtime::ops::lookup::dropout;
    let source = fuser_runtime::cuda::ops::lookup::SOURCE
        .replace(
            r#"__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }"#,
            "__device__ float f16_to_float(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }",
        )
        .replace(
            r#"__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }"#,
            "__device__ unsigned short float_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }",
        )
        .replace(r#"extern "C" "#, "");
    assert!(!source.contains("asm("), "the f16 conversions of the source changed: update the shims here");
    let Some(out) = support::compile_and_run(
        "cuda-lookup",
        "lookup source",
        "c++17",
        &format!("{}{source}{LOOKUP_MAIN}", support::SEQUENTIAL_GRID),
    ) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // The reference semantics of the same dropout, as f32 and bf16 bits.
    let x: Vec<f64> = (0..12).map(|i| f64::from(1.0f32 + 0.1f32 * i as f32)).collect();
    let y = dropout(&x, &[3, 4], &[2, 1], &[8, 6], 1234, 99, 0.25).unwrap();
    let f32_bits: Vec<String> = y.iter().map(|&v| format!("{:08x}", (v as f32).to_bits())).collect();
    let xb: Vec<f64> = x.iter().map(|&v| f64::from(half::bf16::from_f64(v))).collect();
    let yb = dropout(&xb, &[3, 4], &[2, 1], &[8, 6], 1234, 99, 0.25).unwrap();
    let bf16 = |v: f64| half::bf16::from_f64(round_float(DType::BF16, v)).to_bits();
    let bf16_bits: Vec<String> = yb.iter().map(|&v| format!("{:04x}", bf16(v))).collect();
    assert!(y.contains(&0.0) && y.iter().any(|&v| v != 0.0), "the sample drops some and keeps some");
    let expected = format!(
        "philox 6627e8d5 e169c58d bc57ac4c 9b00dbd8\n\
philox 408f276d 41c83b0e a20bc7c6 6d5451fd\n\
philox d16cfe09 94fdcceb 5001e420 24126ea1\n\
embedding 30 31 32 20 21 22 0 0 0 0 0 0 0 0 0\n\
embedding_bf16 0000 c000\n\
dropout_f32 {}\n\
dropout_bf16 {}\n",
        f32_bits.join(" "),
        bf16_bits.join(" ")
    );
    assert_eq!(text, expected);
}
