//! The generated fused kernels compile with NVRTC (no GPU needed: only `libnvrtc`), with the
//! backend's options, for compute capabilities 9.0 (H200: the `cvt.rn.bf16.f32` path), 8.0
//! and 7.5 (the bit-exact bf16 rounding): every pattern of `fused_cases` at real sizes with an
//! H200's properties (pointwise with vectors and a stride-0 view, persistent rows from 37 to
//! 32768 columns, multi-pass rows of 40001 and 50000, dropout in every schedule, f16, f32, f64, bf16, every elementwise kind).
//! Skipped (with a note) when NVRTC cannot be loaded (`LD_LIBRARY_PATH` must reach
//! `libnvrtc.so.13`, e.g. the `nvidia-cuda-nvrtc` wheel's `nvidia/cu13/lib`).
#![cfg(feature = "cuda")]

mod fused_cases;

use fused_cases as cases;
use fuser_runtime::cuda::api::DeviceProps;
use fuser_runtime::cuda::fused::codegen::{self, Operand};
use fuser_runtime::cuda::ops::module;
use fuser_runtime::dtype::DType;
use fuser_runtime::fused::FusedGraph;

const H200: DeviceProps =
    DeviceProps { sm_count: 132, max_threads_per_block: 1024, max_threads_per_sm: 2048, max_shared_per_block: 49152 };

#[test]
fn generated_fused_kernels_compile_with_nvrtc() {
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        eprintln!("skipped: NVRTC (libnvrtc.so) cannot be loaded");
        return;
    }
    let (bf, f32t) = (DType::BF16, DType::F32);
    let mut graphs: Vec<(String, FusedGraph)> = vec![
        ("add".into(), cases::add(bf, &[4096, 4096])),
        ("add, 64-bit indices".into(), cases::add(bf, &[65536, 65536])),
        ("gelu_tanh(x + bias)".into(), cases::gelu_bias(bf, 4096, 4096)),
        ("bias + dropout + residual".into(), cases::bias_dropout_residual(bf, 2048, 4096, 0.1, &[4096, 4096])),
        ("softmax".into(), cases::softmax(bf, 4096, 8192, false)),
        ("softmax + dropout".into(), cases::softmax(bf, 4096, 2048, true)),
        ("softmax f16 short rows".into(), cases::softmax(DType::F16, 4096, 40, false)),
        ("layer_norm".into(), cases::layer_norm(bf, 16384, 8192)),
        ("layer_norm 32768".into(), cases::layer_norm(bf, 64, 32768)),
        ("layer_norm f32 x37".into(), cases::layer_norm(f32t, 64, 37)),
        ("layer_norm f64".into(), cases::layer_norm(DType::F64, 64, 100)),
        ("rms_norm".into(), cases::rms_norm(bf, 4096, 16384)),
        ("softmax + dropout, multi-pass".into(), cases::softmax(bf, 64, 50000, true)),
        ("layer_norm f32, multi-pass".into(), cases::layer_norm(f32t, 64, 40001)),
    ];
    for t in [bf, DType::F16, f32t, DType::F64] {
        graphs.push((format!("every elementwise kind {}", t.name()), cases::every_elementwise(t, 64, 256)));
    }
    for (name, g) in &graphs {
        let mut ins: Vec<Operand> = g.inputs.iter().map(|i| Operand::dense(i.dtype, g.shape_of(i.kind))).collect();
        if name.contains("bias") {
            ins[1].strides = vec![0, 1];
        }
        if name.contains("x37") {
            ins[0].strides = vec![1, 64];
        }
        let outs: Vec<Operand> =
            g.outputs.iter().map(|&o| Operand::dense(g.nodes[o].dtype, g.shape_of(g.nodes[o].kind))).collect();
        let plan = codegen::plan(g, &ins, &outs, &H200).unwrap();
        let src = codegen::source(g, &ins, &outs, &plan.schedule).unwrap();
        let kernel = &src[src.find("extern \"C\"").unwrap()..];
        for cap in [(9, 0), (8, 0), (7, 5)] {
            let ptx =
                module::compile("fused", &src, cap).unwrap_or_else(|e| panic!("{name} on {cap:?}: {}", e.message));
            assert!(ptx.contains(".entry fuser_fused"), "{name}: {ptx}");
            // The NaN-propagating max and min instructions from sm_80 on (in f32; f64 has none).
            if !name.contains("f64") && (kernel.contains("fz_max(") || kernel.contains("fz_min(")) {
                assert_eq!(ptx.contains("max.NaN.f32") || ptx.contains("min.NaN.f32"), cap.0 >= 8, "{name} on {cap:?}");
            }
            // The hardware bf16 rounding from sm_80 on; the bit-exact one before.
            if kernel.contains("fz_bf16(") {
                assert_eq!(ptx.contains("cvt.rn.bf16.f32"), cap.0 >= 8, "{name} on {cap:?}");
            }
        }
    }
}
