//! A stack of `n` sequence-parallel MLP layers on a 1-D mesh of `d` devices, as a fusion-level
//! program (the input of the lowering-scaling benchmark, `lowering.rs`).
//!
//! Layer `i` reads the activation `x_i : [s, h]` split by rows over `DIDx` and computes
//!
//! ```text
//! g_i     = fusion.set x_i                 [[DIDx], []] -> [[], []]          (allgather)
//! a_i     = fusion.linear g_i, w1_i        w1_i [f, h] split by rows          (column-parallel)
//! p_i     = fusion.linear a_i, w2_i        w2_i [h, f] split by columns, partial = [DIDx]
//! x_{i+1} = fusion.sum p_i dims = []       partial -> [[DIDx], []]            (reduce-scatter)
//! ```
//!
//! Every layer has its own weights, passed as function arguments (`%w1_i`, `%w2_i`), so the
//! program has `2n + 1` arguments and `4n` fusion ops. All shardings are written out: the
//! propagation has nothing to infer and the decomposition nothing to split.
//!
//! [`stream_chain`] is the other shape a long program takes: `n` linears on row chunks
//! (`[[Stream(4)], []]`), each reading the previous one's result, which `fusion-to-host` puts in
//! one `host.for` of `n` ops.

use std::fmt::Write as _;

/// Extents of one layer and the mesh size.
#[derive(Clone, Copy, Debug)]
pub struct MlpShape {
    /// Devices of the mesh `@tp = [0, .., d-1]`.
    pub devices: usize,
    /// Sequence length `s` (rows of the activation).
    pub seq: usize,
    /// Hidden size `h`.
    pub hidden: usize,
    /// Feed-forward size `f`.
    pub ffn: usize,
}

impl Default for MlpShape {
    /// Small extents (the benchmark measures the compiler, not the kernels) on 4 devices.
    fn default() -> Self {
        MlpShape { devices: 4, seq: 16, hidden: 8, ffn: 16 }
    }
}

/// `tensor<RxCxf32, #fusion.shard<@tp, AXES[, partial = [DIDx]]>>`.
fn tensor(rows: usize, cols: usize, axes: &str, partial: bool) -> String {
    let partial = if partial { ", partial = [DIDx]" } else { "" };
    format!("tensor<{rows}x{cols}xf32, #fusion.shard<@tp, {axes}{partial}>>")
}

const ROWS: &str = "[[DIDx], []]";
const COLS: &str = "[[], [DIDx]]";
const REPLICATED: &str = "[[], []]";

/// The text of a module with `n` (at least 1) MLP layers of the given shape in one function
/// `@mlp`.
pub fn mlp_layers(n: usize, shape: MlpShape) -> String {
    let MlpShape { devices, seq: s, hidden: h, ffn: f } = shape;
    let act = tensor(s, h, ROWS, false);
    let gathered = tensor(s, h, REPLICATED, false);
    let w1 = tensor(f, h, ROWS, false);
    let mid = tensor(s, f, COLS, false);
    let w2 = tensor(h, f, COLS, false);
    let partial = tensor(s, h, REPLICATED, true);
    let mut out = String::with_capacity(300 + n * (160 + 4 * 260));
    let mesh: Vec<String> = (0..devices).map(|d| d.to_string()).collect();
    let _ = writeln!(out, "fusion.mesh @tp = [{}]", mesh.join(", "));
    let _ = write!(out, "func.func @mlp(%x0: {act}");
    for i in 0..n {
        let _ = write!(out, ", %w1_{i}: {w1}, %w2_{i}: {w2}");
    }
    let _ = writeln!(out, ") -> {act} {{");
    for i in 0..n {
        let j = i + 1;
        let _ = writeln!(out, "  %g{i} = fusion.set %x{i} : ({act}) -> {gathered}");
        let _ = writeln!(out, "  %a{i} = fusion.linear %g{i}, %w1_{i} : ({gathered}, {w1}) -> {mid}");
        let _ = writeln!(out, "  %p{i} = fusion.linear %a{i}, %w2_{i} : ({mid}, {w2}) -> {partial}");
        let _ = writeln!(out, "  %x{j} = fusion.sum %p{i} dims = [] : ({partial}) -> {act}");
    }
    let _ = writeln!(out, "  return %x{n} : {act}");
    out.push_str("}\n");
    out
}

/// The text of a module with one function `@chain` of `n` (at least 1) `fusion.linear`s
/// `x_{i+1} = x_i · w_iᵀ` on `x : [16, 8]` split in 4 stream chunks of rows, with replicated
/// weights `[8, 8]`: a single stream loop of `n` ops after lowering.
pub fn stream_chain(n: usize) -> String {
    let x = "tensor<16x8xf32, #fusion.shard<@tp, [[Stream(4)], []]>>";
    let w = tensor(8, 8, REPLICATED, false);
    let mut out = String::with_capacity(200 + n * 300);
    out.push_str("fusion.mesh @tp = [0, 1, 2, 3]\n");
    let _ = write!(out, "func.func @chain(%x0: {x}");
    for i in 0..n {
        let _ = write!(out, ", %w{i}: {w}");
    }
    let _ = writeln!(out, ") -> {x} {{");
    for i in 0..n {
        let _ = writeln!(out, "  %x{} = fusion.linear %x{i}, %w{i} : ({x}, {w}) -> {x}", i + 1);
    }
    let _ = writeln!(out, "  return %x{n} : {x}");
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use fuser_ir::diag::SourceFile;
    use std::sync::Arc;

    /// Parses and verifies `text`; the names of the ops in the function body.
    fn body_ops(text: &str) -> Vec<String> {
        let ctx = fuser_ir::Context::new(fuser_dialects::registry());
        let mut ir = fuser_ir::Ir::new();
        let module =
            fuser_ir::parser::parse_source(&ctx, &mut ir, &SourceFile::new("l.mlir", Arc::from(text))).expect("parses");
        fuser_ir::verifier::verify(&ctx, &ir, module).expect("verifies");
        let func = ir.nested_ops(module).into_iter().find(|&o| ctx.op_name_str(ir.op_name(o)) == "func.func");
        let body = ir.regions(func.expect("a function"))[0];
        let block = ir.region_entry(body).expect("a body");
        ir.block_ops(block).map(|o| ctx.op_name_str(ir.op_name(o)).to_string()).collect()
    }

    #[test]
    fn mlp_layers_have_four_fusion_ops_per_layer() {
        let ops = body_ops(&super::mlp_layers(3, Default::default()));
        let layer = ["fusion.set", "fusion.linear", "fusion.linear", "fusion.sum"];
        let want: Vec<&str> = layer.iter().cycle().take(12).copied().chain(["func.return"]).collect();
        assert_eq!(ops, want);
    }

    #[test]
    fn stream_chain_is_a_chain_of_linears() {
        let ops = body_ops(&super::stream_chain(5));
        assert_eq!(ops.len(), 6);
        assert!(ops[..5].iter().all(|o| o == "fusion.linear") && ops[5] == "func.return");
    }
}
