//! Inputs for fuser's benchmarks.
//!
//! [`generic_ops`] builds the same kind of module as `benches/gen_ops.py` (which the
//! side-by-side comparison with mlir-opt-19 uses): unregistered ops with attributes over
//! `tensor<128x64xbf16>` values, a region op every 1,000 ops, deterministic for a seed.
//! [`mlp_layers`] (in `layers.rs`) builds a stack of sequence-parallel MLP layers, the input of
//! the lowering benchmark, and [`stream_chain`] a long chain of stream-chunked linears (one host
//! loop); the `gen-layers` binary writes either to a file.

mod layers;

pub use layers::{MlpShape, mlp_layers, stream_chain};

use std::fmt::Write as _;

const TENSOR: &str = "tensor<128x64xbf16>";

/// A generic-form module of about `n` ops; every 1,000 ops sit in a `"hx.for"` region.
pub fn generic_ops(n: usize, seed: u64) -> String {
    let mut rng = SplitMix(seed);
    let mut out = String::with_capacity(n * 140);
    out.push_str("\"builtin.module\"() ({\n");
    let _ = writeln!(out, "  %s0 = \"fz.src\"() {{shape = [128, 64]}} : () -> {TENSOR}");
    let mut visible: Vec<usize> = vec![0];
    for i in 1..n {
        if (i - 1) % 1000 == 0 {
            if i > 1 {
                out.push_str("    \"hx.yield\"() : () -> ()\n");
                let _ = writeln!(out, "  }}) : ({TENSOR}) -> ()");
            }
            let _ = writeln!(out, "  \"hx.for\"(%s0) ({{\n  ^bb0(%iv{i}: index):");
            visible.truncate(1);
        }
        let window = &visible[visible.len().saturating_sub(64)..];
        let a = window[rng.below(window.len())];
        let b = window[rng.below(window.len())];
        match rng.below(10) {
            0..=4 => {
                let _ = writeln!(
                    out,
                    "    %s{i} = \"fz.matmul\"(%s{a}, %s{b}) {{mesh = [0, 1], tile = array<i64: 32, 32>}} : ({TENSOR}, {TENSOR}) -> {TENSOR}"
                );
            }
            5..=7 => {
                let _ = writeln!(out, "    %s{i} = \"fz.add\"(%s{a}, %s{b}) : ({TENSOR}, {TENSOR}) -> {TENSOR}");
            }
            _ => {
                let _ = writeln!(
                    out,
                    "    %s{i} = \"fz.cast\"(%s{a}) {{axis = {} : i64, kind = \"bf16_to_f32\"}} : ({TENSOR}) -> {TENSOR}",
                    i % 7
                );
            }
        }
        visible.push(i);
    }
    if n > 1 {
        out.push_str("    \"hx.yield\"() : () -> ()\n");
        let _ = writeln!(out, "  }}) : ({TENSOR}) -> ()");
    }
    out.push_str("}) : () -> ()\n");
    out
}

/// A tiny deterministic PRNG (SplitMix64).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use fuser_ir::diag::SourceFile;
    use std::sync::Arc;

    #[test]
    fn generated_module_parses_and_verifies() {
        let text = super::generic_ops(2500, 7);
        let ctx = fuser_ir::Context::new(fuser_dialects::registry());
        ctx.set_allow_unregistered(true);
        let mut ir = fuser_ir::Ir::new();
        let src = SourceFile::new("gen.mlir", Arc::from(text.as_str()));
        let module = fuser_ir::parser::parse_source(&ctx, &mut ir, &src).expect("parses");
        fuser_ir::verifier::verify(&ctx, &ir, module).expect("verifies");
        assert_eq!(ir.num_ops(), 2500 + 3 * 2 + 1);
    }
}
