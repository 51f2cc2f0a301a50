//! Finite-difference checks of `fusion-autodiff` (docs/dev/autodiff.md, "How it is checked"):
//! every rule on a small `f64` function, evaluated by `fuser_runtime::reference` (exact `f64`).
//! The gradients of `@f_vjp` must match central differences of `@f` contracted with the
//! cotangents, `<g, (f(x + h e_i) - f(x - h e_i)) / 2h>`, at inputs away from kinks; `@f_fwd`
//! then `@f_bwd` must give the same gradients as `@f_vjp`.

use fuser_ir::diag::SourceFile;
use fuser_ir::pass::{OpPassManager, PassManager, PassManagerConfig, PassRegistry};
use fuser_ir::types::TypeKind;
use fuser_ir::{Context, Ir, OpId};
use fuser_runtime::dtype::DType;
use fuser_runtime::reference::evaluate;
use fuser_runtime::tensor::HostTensor;
use std::sync::Arc;

/// How the values of one argument are drawn.
#[derive(Clone, Copy)]
enum Gen {
    /// Uniform in `[lo, hi)`.
    Range(f64, f64),
    /// `|v|` uniform in `[lo, hi)`, random sign (away from 0: abs, reciprocal).
    Away(f64, f64),
    /// Every element the same value (integer arguments: dropout's seed and offset).
    Const(f64),
    /// Integers uniform in `[lo, hi)` (ids and labels).
    Int(i64, i64),
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn parse(ctx: &Context, text: &str) -> (Ir, OpId) {
    let mut ir = Ir::new();
    let source = SourceFile::new("<autodiff>", Arc::from(text));
    let module = fuser_ir::parser::parse_source_all(ctx, &mut ir, &source)
        .unwrap_or_else(|d| panic!("parse: {:?}", d.iter().map(|d| d.message.clone()).collect::<Vec<_>>()));
    (ir, module)
}

fn run_pipeline(ctx: &Context, ir: &mut Ir, module: OpId, pipeline: &str) -> Result<(), String> {
    let mut registry = PassRegistry::new();
    fuser_passes::register_all(&mut registry).expect("register");
    let pm = OpPassManager::parse(pipeline, &registry).expect("pipeline");
    let config = PassManagerConfig { threading: false, verify_each: true, ..Default::default() };
    let result = PassManager { pipeline: pm, config }.run(ctx, ir, module);
    if result.success {
        Ok(())
    } else {
        Err(result.diagnostics().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))
    }
}

fn function(ctx: &Context, ir: &Ir, module: OpId, name: &str) -> OpId {
    let body = ir.region_entry(ir.region(module, 0)).expect("module body");
    ir.block_ops(body)
        .find(|&o| fuser_dialects::func::symbol_name(ctx, ir, o) == Some(name))
        .unwrap_or_else(|| panic!("no @{name}"))
}

fn random_tensor(ctx: &Context, ty: fuser_ir::Type, draw: Gen, rng: &mut Lcg) -> HostTensor {
    let TypeKind::RankedTensor { shape, elem, .. } = ctx.type_kind(ty).clone() else { panic!("not a tensor") };
    let dtype = DType::of(ctx, elem).expect("dtype");
    let shape: Vec<usize> = shape.iter().map(|&e| e as usize).collect();
    let n: usize = shape.iter().product();
    let data = (0..n)
        .map(|_| match draw {
            Gen::Range(lo, hi) => lo + (hi - lo) * rng.next(),
            Gen::Away(lo, hi) => {
                let m = lo + (hi - lo) * rng.next();
                if rng.next() < 0.5 { -m } else { m }
            }
            Gen::Const(v) => v,
            Gen::Int(lo, hi) => (lo + ((hi - lo) as f64 * rng.next()) as i64) as f64,
        })
        .collect();
    HostTensor::new(dtype, shape, data).expect("tensor")
}

fn eval(ctx: &Context, ir: &Ir, f: OpId, inputs: &[HostTensor]) -> Vec<HostTensor> {
    evaluate(ctx, ir, f, inputs).unwrap_or_else(|(_, e)| panic!("reference: {e}"))
}

/// Differentiates `@f` of `src` (arguments drawn by `gens`) and checks its gradients.
fn check(src: &str, gens: &[Gen]) {
    check_with(src, gens, "")
}

fn check_with(src: &str, gens: &[Gen], options: &str) {
    let ctx = Context::new(fuser_dialects::registry());
    let (mut ir, module) = parse(&ctx, src);
    run_pipeline(&ctx, &mut ir, module, &format!("builtin.module(fusion-autodiff{{func=f{options}}})"))
        .unwrap_or_else(|e| panic!("fusion-autodiff: {e}"));
    let f = function(&ctx, &ir, module, "f");
    let (inputs_ty, results_ty) = {
        let (i, r) = fuser_dialects::func::signature(&ctx, &ir, f).expect("signature");
        (i.to_vec(), r.to_vec())
    };
    assert_eq!(inputs_ty.len(), gens.len(), "one generator per argument");
    let mut rng = Lcg(0x5eed);
    let inputs: Vec<HostTensor> =
        inputs_ty.iter().zip(gens).map(|(&t, &g)| random_tensor(&ctx, t, g, &mut rng)).collect();
    let float = |t: fuser_ir::Type| fuser_passes::fusion::autodiff::joint::is_float_type(&ctx, t);
    let cots: Vec<HostTensor> = results_ty
        .iter()
        .filter(|&&t| float(t))
        .map(|&t| random_tensor(&ctx, t, Gen::Range(-1.0, 1.0), &mut rng))
        .collect();
    let wrt: Vec<usize> = if let Some(list) = options.strip_prefix(" wrt=") {
        list.split(',').map(|s| s.parse().expect("wrt")).collect()
    } else {
        (0..inputs_ty.len()).filter(|&i| float(inputs_ty[i])).collect()
    };
    // The joint.
    let vjp = function(&ctx, &ir, module, "f_vjp");
    let joint_in: Vec<HostTensor> = inputs.iter().chain(&cots).cloned().collect();
    let joint_out = eval(&ctx, &ir, vjp, &joint_in);
    let nres = results_ty.len();
    let grads = &joint_out[nres..];
    assert_eq!(grads.len(), wrt.len());
    // Central differences of <cotangents, f>.
    let float_results: Vec<usize> = (0..nres).filter(|&i| float(results_ty[i])).collect();
    let dot = |outs: &[HostTensor]| -> f64 {
        float_results
            .iter()
            .zip(&cots)
            .map(|(&r, c)| outs[r].data.iter().zip(&c.data).map(|(a, b)| a * b).sum::<f64>())
            .sum()
    };
    let h = 1e-5;
    for (k, &i) in wrt.iter().enumerate() {
        let mut fd = Vec::new();
        for j in 0..inputs[i].data.len() {
            let mut plus = inputs.clone();
            plus[i].data[j] += h;
            let mut minus = inputs.clone();
            minus[i].data[j] -= h;
            fd.push((dot(&eval(&ctx, &ir, f, &plus)) - dot(&eval(&ctx, &ir, f, &minus))) / (2.0 * h));
        }
        let got = &grads[k].data;
        let scale = fd.iter().map(|v| v * v).sum::<f64>().sqrt().max(1e-3);
        let err = fd.iter().zip(got).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt() / scale;
        assert!(err < 1e-6, "gradient of argument {i}: relative error {err:.3e}\n  fd:  {fd:?}\n  vjp: {got:?}");
    }
    // _fwd then _bwd.
    let fwd = function(&ctx, &ir, module, "f_fwd");
    let bwd = function(&ctx, &ir, module, "f_bwd");
    let fwd_out = eval(&ctx, &ir, fwd, &inputs);
    for r in 0..nres {
        assert_eq!(fwd_out[r].data, joint_out[r].data, "result {r} of @f_fwd");
    }
    let bwd_in: Vec<HostTensor> = fwd_out[nres..].iter().chain(&cots).cloned().collect();
    let bwd_out = eval(&ctx, &ir, bwd, &bwd_in);
    for (k, (a, b)) in bwd_out.iter().zip(grads).enumerate() {
        assert_eq!(a.data, b.data, "gradient {k} of @f_bwd");
    }
}

const R: Gen = Gen::Range(-1.5, 1.5);
const POS: Gen = Gen::Range(0.5, 2.0);

#[test]
fn elementwise() {
    check(
        r#"
func.func @f(%a: tensor<3x4xf64>, %b: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  %s = fusion.add %a, %b : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %d = fusion.sub %a, %b : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %p = fusion.mul %s, %d : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %q = fusion.div %p, %b : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %n = fusion.neg %q : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %m = fusion.mul %a, %a : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %n, %m : tensor<3x4xf64>, tensor<3x4xf64>
}"#,
        &[R, POS],
    );
}

#[test]
fn math_unary() {
    let ops = [
        ("exp", R),
        ("log", POS),
        ("tanh", R),
        ("erf", R),
        ("sqrt", POS),
        ("rsqrt", POS),
        ("sigmoid", R),
        ("abs", Gen::Away(0.2, 1.5)),
        ("reciprocal", Gen::Away(0.5, 1.5)),
        ("silu", R),
        ("gelu", R),
    ];
    for (op, draw) in ops {
        let src = format!(
            r#"
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {{
  %y = fusion.{op} %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}}"#
        );
        check(&src, &[draw]);
    }
    check(
        r#"
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = fusion.gelu %x {approximate = "tanh"} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}"#,
        &[R],
    );
}

#[test]
fn math_binary() {
    for op in ["maximum", "minimum", "pow"] {
        let src = format!(
            r#"
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x3xf64> {{
  %y = fusion.{op} %a, %b : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}}"#
        );
        check(&src, &[POS, R]);
    }
    check(
        r#"
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %c = fusion.compare lt %a, %b : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
  %y = fusion.where %c, %a, %b : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %z = fusion.mul %y, %a : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %z : tensor<2x3xf64>
}"#,
        &[R, R],
    );
}

#[test]
fn reductions() {
    for (op, attrs) in
        [("sum", ""), ("mean", ""), ("max", ""), ("min", ""), ("var", ""), ("var", " {correction = 0 : i64}")]
    {
        for keep in [false, true] {
            let (k, ty) = if keep { (" keep_dims", "tensor<2x1x4xf64>") } else { ("", "tensor<2x4xf64>") };
            let src = format!(
                r#"
func.func @f(%x: tensor<2x3x4xf64>) -> {ty} {{
  %y = fusion.{op} %x dims = [1]{k}{attrs} : (tensor<2x3x4xf64>) -> {ty}
  return %y : {ty}
}}"#
            );
            check(&src, &[R]);
        }
    }
    // Several axes, and ties of max split evenly (the duplicate makes every slice tie).
    check(
        r#"
func.func @f(%x: tensor<2x3xf64>) -> (tensor<2xf64>, tensor<f64>) {
  %c = fusion.concat %x, %x dim = 1 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x6xf64>
  %m = fusion.max %c dims = [1] : (tensor<2x6xf64>) -> tensor<2xf64>
  %s = fusion.mean %x dims = [0, 1] : (tensor<2x3xf64>) -> tensor<f64>
  return %m, %s : tensor<2xf64>, tensor<f64>
}"#,
        &[R],
    );
}

#[test]
fn shapes() {
    check(
        r#"
func.func @f(%x: tensor<2x3xf64>, %v: tensor<3xf64>) -> tensor<4x3x2xf64> {
  %b = fusion.broadcast %v dims = [0] : (tensor<3xf64>) -> tensor<2x3xf64>
  %s = fusion.mul %x, %b : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %r = fusion.reshape %s : (tensor<2x3xf64>) -> tensor<6xf64>
  %r2 = fusion.reshape %r : (tensor<6xf64>) -> tensor<3x2xf64>
  %b2 = fusion.broadcast %r2 dims = [0] : (tensor<3x2xf64>) -> tensor<4x3x2xf64>
  %p = fusion.permute %b2 dims = [2, 0, 1] : (tensor<4x3x2xf64>) -> tensor<2x4x3xf64>
  %q = fusion.permute %p dims = [1, 2, 0] : (tensor<2x4x3xf64>) -> tensor<4x3x2xf64>
  %e = fusion.exp %q : (tensor<4x3x2xf64>) -> tensor<4x3x2xf64>
  return %e : tensor<4x3x2xf64>
}"#,
        &[R, R],
    );
    check(
        r#"
func.func @f(%x: tensor<4x6xf64>, %y: tensor<4x2xf64>) -> (tensor<2x3xf64>, tensor<4x5xf64>) {
  %s = fusion.slice %x offsets = [1, 2] sizes = [2, 3] : (tensor<4x6xf64>) -> tensor<2x3xf64>
  %e = fusion.exp %s : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %t = fusion.slice %x offsets = [0, 0] sizes = [4, 3] : (tensor<4x6xf64>) -> tensor<4x3xf64>
  %c = fusion.concat %y, %t dim = 1 : (tensor<4x2xf64>, tensor<4x3xf64>) -> tensor<4x5xf64>
  %m = fusion.mul %c, %c : (tensor<4x5xf64>, tensor<4x5xf64>) -> tensor<4x5xf64>
  return %e, %m : tensor<2x3xf64>, tensor<4x5xf64>
}"#,
        &[R, R],
    );
}

#[test]
fn strided_slices() {
    check(
        r#"
func.func @f(%x: tensor<5x9xf64>) -> (tensor<2x3xf64>, tensor<5x1xf64>, tensor<1x2xf64>) {
  %s = fusion.slice %x offsets = [1, 1] sizes = [2, 3] strides = [2, 3] : (tensor<5x9xf64>) -> tensor<2x3xf64>
  %e = fusion.exp %s : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %t = fusion.slice %x offsets = [0, 8] sizes = [5, 1] strides = [1, 4] : (tensor<5x9xf64>) -> tensor<5x1xf64>
  %u = fusion.slice %x offsets = [0, 0] sizes = [1, 2] strides = [5, 8] : (tensor<5x9xf64>) -> tensor<1x2xf64>
  %v = fusion.mul %u, %u : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
  return %e, %t, %v : tensor<2x3xf64>, tensor<5x1xf64>, tensor<1x2xf64>
}"#,
        &[R],
    );
}

#[test]
fn gemms() {
    check(
        r#"
func.func @f(%a: tensor<3x4xf64>, %b: tensor<4x5xf64>, %c: tensor<2x3x4xf64>, %d: tensor<2x4x5xf64>) -> (tensor<3x5xf64>, tensor<2x3x5xf64>, tensor<2x3x5xf64>) {
  %m = fusion.matmul %a, %b : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
  %n = fusion.matmul %c, %b : (tensor<2x3x4xf64>, tensor<4x5xf64>) -> tensor<2x3x5xf64>
  %o = fusion.matmul %c, %d : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>
  return %m, %n, %o : tensor<3x5xf64>, tensor<2x3x5xf64>, tensor<2x3x5xf64>
}"#,
        &[R, R, R, R],
    );
    check(
        r#"
func.func @f(%x: tensor<3x4xf64>, %w: tensor<5x4xf64>, %b: tensor<5xf64>, %z: tensor<2x3x4xf64>) -> (tensor<3x5xf64>, tensor<2x3x5xf64>, tensor<3x5xf64>) {
  %y = fusion.linear %x, %w, %b : (tensor<3x4xf64>, tensor<5x4xf64>, tensor<5xf64>) -> tensor<3x5xf64>
  %u = fusion.linear %z, %w, %b : (tensor<2x3x4xf64>, tensor<5x4xf64>, tensor<5xf64>) -> tensor<2x3x5xf64>
  %v = fusion.linear %x, %w : (tensor<3x4xf64>, tensor<5x4xf64>) -> tensor<3x5xf64>
  return %y, %u, %v : tensor<3x5xf64>, tensor<2x3x5xf64>, tensor<3x5xf64>
}"#,
        &[R, R, R, R],
    );
}

#[test]
fn softmaxes() {
    for op in ["softmax", "log_softmax"] {
        let src = format!(
            r#"
func.func @f(%x: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {{
  %y = fusion.{op} %x dims = [1] : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %z = fusion.{op} %x dims = [0, 1] : (tensor<3x4xf64>) -> tensor<3x4xf64>
  return %y, %z : tensor<3x4xf64>, tensor<3x4xf64>
}}"#
        );
        check(&src, &[R]);
    }
}

#[test]
fn norms() {
    check(
        r#"
func.func @f(%x: tensor<2x3x4xf64>, %w: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<2x3x4xf64>, tensor<2x3x4xf64>) {
  %y = fusion.layer_norm %x weight %w bias %b dims = [2] : (tensor<2x3x4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<2x3x4xf64>
  %z, %m, %r = fusion.layer_norm %x dims = [1, 2] {epsilon = 1.000000e-03 : f64} : (tensor<2x3x4xf64>) -> (tensor<2x3x4xf64>, tensor<2xf64>, tensor<2xf64>)
  return %y, %z : tensor<2x3x4xf64>, tensor<2x3x4xf64>
}"#,
        &[R, R, R],
    );
    check(
        r#"
func.func @f(%x: tensor<3x4xf64>, %w: tensor<4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  %y = fusion.rms_norm %x weight %w dims = [1] {epsilon = 1.000000e-06 : f64} : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  %z = fusion.rms_norm %x dims = [1] : (tensor<3x4xf64>) -> tensor<3x4xf64>
  return %y, %z : tensor<3x4xf64>, tensor<3x4xf64>
}"#,
        &[R, R],
    );
}

#[test]
fn norm_inside_a_chain() {
    // The rebuilt norm (with its statistics) feeds further ops, and a fusion.set.
    check(
        r#"
func.func @f(%x: tensor<3x4xf64>, %w: tensor<4xf64>, %b: tensor<4xf64>, %v: tensor<5x4xf64>) -> tensor<3x5xf64> {
  %n = fusion.layer_norm %x weight %w bias %b dims = [1] : (tensor<3x4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  %s = fusion.set %n : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %r = fusion.rms_norm %s dims = [1] : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %t = fusion.tanh %r : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %y = fusion.linear %t, %v : (tensor<3x4xf64>, tensor<5x4xf64>) -> tensor<3x5xf64>
  return %y : tensor<3x5xf64>
}"#,
        &[R, R, R, R],
    );
}

#[test]
fn dropout() {
    check_with(
        r#"
func.func @f(%x: tensor<4x8xf64>, %seed: tensor<i64>, %offset: tensor<i64>) -> tensor<4x8xf64> {
  %y = fusion.dropout %x, %seed, %offset p = 3.000000e-01 : (tensor<4x8xf64>, tensor<i64>, tensor<i64>) -> tensor<4x8xf64>
  %z = fusion.mul %y, %x : (tensor<4x8xf64>, tensor<4x8xf64>) -> tensor<4x8xf64>
  return %z : tensor<4x8xf64>
}"#,
        &[R, Gen::Const(1234.0), Gen::Const(7.0)],
        " wrt=0",
    );
}

#[test]
fn chain_with_unused_argument() {
    // An argument nothing depends on gets a zero gradient; a result returned twice accumulates.
    check(
        r#"
func.func @f(%x: tensor<3x4xf64>, %u: tensor<2xf64>, %w: tensor<5x4xf64>) -> (tensor<3x5xf64>, tensor<3x5xf64>, tensor<f64>) {
  %y = fusion.linear %x, %w : (tensor<3x4xf64>, tensor<5x4xf64>) -> tensor<3x5xf64>
  %g = fusion.gelu %y : (tensor<3x5xf64>) -> tensor<3x5xf64>
  %s = fusion.sum %g dims = [0, 1] : (tensor<3x5xf64>) -> tensor<f64>
  return %g, %g, %s : tensor<3x5xf64>, tensor<3x5xf64>, tensor<f64>
}"#,
        &[R, R, R],
    );
}

/// The tensor-parallel MLP of test/Run/autodiff/mlp.mlir, on 2 devices.
const MLP: &str = r#"
fusion.mesh @tp = [0, 1]
func.func @mlp(%x: tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>,
               %w1: tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
               %b1: tensor<32xf32, #fusion.shard<@tp, [[DIDx]]>>,
               %w2: tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>> {
  %h = fusion.linear %x, %w1, %b1 : (tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>, tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<32xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %g = fusion.gelu %h : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %y = fusion.linear %g, %w2 : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
}"#;

/// Erases every function of `module` but `@keep`.
fn keep_only(ctx: &Context, ir: &mut Ir, module: OpId, keep: &str) {
    let body = ir.region_entry(ir.region(module, 0)).expect("module body");
    let drop: Vec<OpId> = ir
        .block_ops(body)
        .filter(|&o| ctx.op_name_str(ir.op_name(o)) == "func.func")
        .filter(|&o| fuser_dialects::func::symbol_name(ctx, ir, o) != Some(keep))
        .collect();
    for f in drop {
        ir.erase_op(f);
    }
}

/// The sharded MLP's `@mlp_vjp` (and `@mlp_fwd`, `@mlp_bwd`) lower through `tp-default` and
/// run on 2 cpu ranks, matching the unsharded reference.
#[test]
fn sharded_mlp_runs_on_two_ranks() {
    use fuser_runtime::driver::{self, RunConfig};
    for entry in ["mlp_vjp", "mlp_fwd", "mlp_bwd"] {
        let ctx = Context::new(fuser_dialects::registry());
        let (mut ir, module) = parse(&ctx, MLP);
        run_pipeline(&ctx, &mut ir, module, "builtin.module(fusion-autodiff{func=mlp})").expect("fusion-autodiff");
        keep_only(&ctx, &mut ir, module, entry);
        let text = fuser_ir::printer::print_module(&ctx, &ir, module, &Default::default());
        let (ref_ir, ref_module) = parse(&ctx, &text);
        run_pipeline(&ctx, &mut ir, module, "builtin.module(tp-default)").unwrap_or_else(|e| panic!("{entry}: {e}"));
        let func = driver::first_function(&ctx, &ir, module).expect("a function");
        assert!(!driver::is_fusion_level(&ctx, &ir, func), "{entry} is lowered");
        let prog = fuser_runtime::exec::prepare(&ctx, &ir, func).unwrap_or_else(|(_, m)| panic!("{entry}: {m}"));
        let cfg = RunConfig { ranks: 2, seed: 3, ..Default::default() };
        let outcome =
            driver::run_on_cpu(&ctx, &ir, func, &prog, &cfg).unwrap_or_else(|f| panic!("{entry}: {}", f.error));
        let ref_func = driver::first_function(&ctx, &ref_ir, ref_module).expect("reference");
        let checks = driver::check_against_reference(&ctx, &ref_ir, ref_func, &outcome.inputs, &outcome.outputs)
            .unwrap_or_else(|f| panic!("{entry}: {}", f.error));
        assert!(!checks.is_empty());
        for (i, c) in checks.iter().enumerate() {
            assert!(c.passed(), "{entry} output #{i}: rel err {:.3e} > {:.0e}", c.rel_err, c.tolerance);
        }
    }
}

/// The lowering fuzzer's random programs (in `f64`, small): `fusion-autodiff` either
/// differentiates each or refuses it with its own diagnostic (never a panic or a malformed
/// function), and each differentiated `@fuzz_vjp` matches a central difference of `@fuzz`
/// along a random direction, `<g, J d> ~ (<g, f(x + h d)> - <g, f(x - h d)>) / 2h`.
#[test]
fn random_programs_match_finite_differences() {
    use fuser_lowerfuzz::generate::{GenConfig, generate};
    let cfg = GenConfig { max_numel: 48, ..Default::default() };
    let (mut checked, mut refused, mut non_finite) = (0, 0, 0);
    for seed in 0..300u64 {
        let case = generate(seed, &cfg);
        let text = case.program.in_dtype(fuser_lowerfuzz::program::DType::F64).to_mlir();
        let ctx = Context::new(fuser_dialects::registry());
        let (mut ir, module) = parse(&ctx, &text);
        if let Err(e) = run_pipeline(&ctx, &mut ir, module, "builtin.module(fusion-autodiff{func=fuzz})") {
            assert!(e.starts_with("fusion-autodiff: ") && !e.contains("panic"), "seed {seed}: {e}\n{text}");
            refused += 1;
            continue;
        }
        let f = function(&ctx, &ir, module, "fuzz");
        let vjp = function(&ctx, &ir, module, "fuzz_vjp");
        let (ins, outs) = {
            let (i, r) = fuser_dialects::func::signature(&ctx, &ir, f).expect("signature");
            (i.to_vec(), r.to_vec())
        };
        let float = |t: fuser_ir::Type| fuser_passes::fusion::autodiff::joint::is_float_type(&ctx, t);
        let tensor = |t: fuser_ir::Type, s: u64| {
            let TypeKind::RankedTensor { shape, elem, .. } = ctx.type_kind(t).clone() else { panic!("not a tensor") };
            let shape: Vec<usize> = shape.iter().map(|&e| e as usize).collect();
            HostTensor::random(DType::of(&ctx, elem).expect("dtype"), &shape, s)
        };
        let inputs: Vec<HostTensor> = ins.iter().enumerate().map(|(i, &t)| tensor(t, seed * 100 + i as u64)).collect();
        let dirs: Vec<HostTensor> =
            ins.iter().enumerate().map(|(i, &t)| tensor(t, seed * 100 + 50 + i as u64)).collect();
        let float_results: Vec<usize> = (0..outs.len()).filter(|&i| float(outs[i])).collect();
        // A norm's statistics are not differentiable (as in torch): their cotangents are zero
        // here, so that the central difference leaves them out too.
        let body = ir.region_entry(ir.region(f, 0)).expect("body");
        let ret = ir.last_op(body).expect("return");
        let statistic = |r: usize| {
            let v = ir.operand(ret, r);
            ir.defining_op(v).is_some_and(|op| {
                let name = ctx.op_name_str(ir.op_name(op));
                (name == "fusion.layer_norm" || name == "fusion.rms_norm") && ir.result(op, 0) != v
            })
        };
        let cots: Vec<HostTensor> = float_results
            .iter()
            .map(|&i| {
                let mut c = tensor(outs[i], seed * 100 + 80 + i as u64);
                if statistic(i) {
                    c.data.iter_mut().for_each(|v| *v = 0.0);
                }
                c
            })
            .collect();
        let joint_in: Vec<HostTensor> = inputs.iter().chain(&cots).cloned().collect();
        let Ok(joint) = evaluate(&ctx, &ir, vjp, &joint_in) else {
            non_finite += 1;
            continue;
        };
        let wrt: Vec<usize> = (0..ins.len()).filter(|&i| float(ins[i])).collect();
        let grads = &joint[outs.len()..];
        let analytic: f64 = wrt
            .iter()
            .zip(grads)
            .map(|(&i, g)| g.data.iter().zip(&dirs[i].data).map(|(a, b)| a * b).sum::<f64>())
            .sum();
        let h = 1e-6;
        let at = |sign: f64| -> Option<f64> {
            let mut x = inputs.clone();
            for &i in &wrt {
                for (v, d) in x[i].data.iter_mut().zip(&dirs[i].data) {
                    *v += sign * h * d;
                }
            }
            let out = evaluate(&ctx, &ir, f, &x).ok()?;
            Some(
                float_results
                    .iter()
                    .zip(&cots)
                    .map(|(&r, c)| out[r].data.iter().zip(&c.data).map(|(a, b)| a * b).sum::<f64>())
                    .sum(),
            )
        };
        let (Some(plus), Some(minus)) = (at(1.0), at(-1.0)) else {
            non_finite += 1;
            continue;
        };
        let numeric = (plus - minus) / (2.0 * h);
        let all_finite =
            numeric.is_finite() && analytic.is_finite() && joint.iter().all(|t| t.data.iter().all(|v| v.is_finite()));
        if !all_finite {
            non_finite += 1;
            continue;
        }
        let scale = numeric.abs().max(analytic.abs()).max(1.0);
        assert!(
            (numeric - analytic).abs() <= 1e-4 * scale,
            "seed {seed}: directional derivative {analytic} (vjp) vs {numeric} (central difference)\n{text}"
        );
        checked += 1;
    }
    eprintln!("random programs: {checked} checked, {refused} refused, {non_finite} with non-finite values");
    assert!(checked >= 100, "only {checked} of 300 random programs were differentiated and checked");
}

/// The `@fuzz_vjp` of the lowering fuzzer's random programs, lowered by each case's pipeline
/// and run on its cpu ranks, matches the unsharded reference (the fuzzer's check of the
/// backward: `fuser-run --entry fuzz_vjp --check`). A backward the lowering refuses (with a
/// diagnostic) is counted, not failed: the limits of the lowering are its own tests'.
#[test]
fn random_programs_vjp_runs_sharded() {
    use fuser_lowerfuzz::generate::{GenConfig, generate};
    use fuser_runtime::driver::{self, RunConfig};
    let cfg = GenConfig { max_numel: 256, ..Default::default() };
    let (mut passed, mut refused, mut not_lowered) = (0, 0, Vec::new());
    for seed in 0..120u64 {
        let case = generate(seed, &cfg);
        let text = case.program.in_dtype(fuser_lowerfuzz::program::DType::F64).to_mlir();
        if std::env::var("AD_DUMP").ok().as_deref() == Some(&seed.to_string()) {
            eprintln!("{text}\n{}", case.pipeline.text());
        }
        let ctx = Context::new(fuser_dialects::registry());
        let (mut ir, module) = parse(&ctx, &text);
        if run_pipeline(&ctx, &mut ir, module, "builtin.module(fusion-autodiff{func=fuzz})").is_err() {
            refused += 1;
            continue;
        }
        keep_only(&ctx, &mut ir, module, "fuzz_vjp");
        let joint = fuser_ir::printer::print_module(&ctx, &ir, module, &Default::default());
        let (ref_ir, ref_module) = parse(&ctx, &joint);
        if let Err(e) = run_pipeline(&ctx, &mut ir, module, &case.pipeline.text()) {
            // Whether the forward itself lowers: the backward's own limits are the interesting ones.
            let (mut fir, fmodule) = parse(&ctx, &text);
            let forward = if run_pipeline(&ctx, &mut fir, fmodule, &case.pipeline.text()).is_ok() {
                "forward lowers"
            } else {
                "forward does not lower either"
            };
            not_lowered.push(format!("seed {seed} ({forward}): {e}"));
            continue;
        }
        let func = driver::first_function(&ctx, &ir, module).expect("a function");
        let prog = fuser_runtime::exec::prepare(&ctx, &ir, func).unwrap_or_else(|(_, m)| panic!("seed {seed}: {m}"));
        let cfg = RunConfig { ranks: case.program.devices(), seed, ..Default::default() };
        let outcome =
            driver::run_on_cpu(&ctx, &ir, func, &prog, &cfg).unwrap_or_else(|f| panic!("seed {seed}: {}", f.error));
        let ref_func = driver::first_function(&ctx, &ref_ir, ref_module).expect("reference");
        let checks = driver::check_against_reference(&ctx, &ref_ir, ref_func, &outcome.inputs, &outcome.outputs)
            .unwrap_or_else(|f| panic!("seed {seed}: {}", f.error));
        for (i, c) in checks.iter().enumerate() {
            assert!(
                c.passed(),
                "seed {seed} ({}): output #{i} rel err {:.3e} > {:.0e}\n{joint}",
                case.pipeline.text(),
                c.rel_err,
                c.tolerance
            );
        }
        passed += 1;
    }
    eprintln!("random vjps: {passed} passed sharded, {refused} refused, {} not lowered:", not_lowered.len());
    for n in &not_lowered {
        eprintln!("  {}", n.lines().next().unwrap_or(""));
    }
    assert!(passed >= 40, "only {passed} of 120 random backward programs ran");
}

#[test]
fn attention() {
    // Grouped-query (4 heads over 2 kv heads), causal, with a key sequence longer than the
    // queries; the forward asked for no lse (the pass adds it).
    check(
        r#"
func.func @f(%q: tensor<1x4x3x4xf64>, %k: tensor<1x2x5x4xf64>, %v: tensor<1x2x5x4xf64>) -> tensor<1x4x3x4xf64> {
  %o = fusion.sdpa %q, %k, %v causal : (tensor<1x4x3x4xf64>, tensor<1x2x5x4xf64>, tensor<1x2x5x4xf64>) -> tensor<1x4x3x4xf64>
  return %o : tensor<1x4x3x4xf64>
}"#,
        &[R, R, R],
    );
    // Multi-head with a scale, the lse a result too (not differentiable: its cotangent is
    // ignored, so the check contracts only the output).
    check_with(
        r#"
func.func @f(%q: tensor<2x2x4x4xf64>, %k: tensor<2x2x4x4xf64>, %v: tensor<2x2x4x4xf64>) -> tensor<2x2x4x4xf64> {
  %o, %lse = fusion.sdpa %q, %k, %v scale = 7.000000e-01 : (tensor<2x2x4x4xf64>, tensor<2x2x4x4xf64>, tensor<2x2x4x4xf64>) -> (tensor<2x2x4x4xf64>, tensor<2x2x4xf32>)
  %t = fusion.tanh %o : (tensor<2x2x4x4xf64>) -> tensor<2x2x4x4xf64>
  return %t : tensor<2x2x4x4xf64>
}"#,
        &[R, R, R],
        " wrt=0,2",
    );
}

#[test]
fn embedding() {
    // Ids repeat (the gradient rows add up) and include 0 and V-1.
    check_with(
        r#"
func.func @f(%t: tensor<5x3xf64>, %ids: tensor<2x4xi64>) -> tensor<2x4x3xf64> {
  %e = fusion.embedding %t, %ids : (tensor<5x3xf64>, tensor<2x4xi64>) -> tensor<2x4x3xf64>
  %s = fusion.mul %e, %e : (tensor<2x4x3xf64>, tensor<2x4x3xf64>) -> tensor<2x4x3xf64>
  return %s : tensor<2x4x3xf64>
}"#,
        &[R, Gen::Int(0, 5)],
        " wrt=0",
    );
}

#[test]
fn cross_entropy() {
    check_with(
        r#"
func.func @f(%x: tensor<6x5xf64>, %labels: tensor<6xi64>) -> tensor<6xf64> {
  %l = fusion.cross_entropy %x, %labels : (tensor<6x5xf64>, tensor<6xi64>) -> tensor<6xf64>
  return %l : tensor<6xf64>
}"#,
        &[Gen::Range(-4.0, 4.0), Gen::Int(0, 5)],
        " wrt=0",
    );
    // ignore_index rows (label 1 here) get no gradient.
    check_with(
        r#"
func.func @f(%x: tensor<8x4xf64>, %labels: tensor<8xi64>) -> tensor<8xf64> {
  %l = fusion.cross_entropy %x, %labels {ignore_index = 1 : i64} : (tensor<8x4xf64>, tensor<8xi64>) -> tensor<8xf64>
  return %l : tensor<8xf64>
}"#,
        &[R, Gen::Int(0, 4)],
        " wrt=0",
    );
}

#[test]
fn norm_statistics_are_differentiable() {
    // A program that computes with a norm's statistics: their derivatives reach x.
    check(
        r#"
func.func @f(%x: tensor<3x5xf64>, %w: tensor<5xf64>) -> (tensor<3x5xf64>, tensor<3xf64>) {
  %y, %m, %r = fusion.layer_norm %x weight %w dims = [1] : (tensor<3x5xf64>, tensor<5xf64>) -> (tensor<3x5xf64>, tensor<3xf64>, tensor<3xf64>)
  %s = fusion.mul %m, %r : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %y, %s : tensor<3x5xf64>, tensor<3xf64>
}"#,
        &[R, POS],
    );
    // Only the statistics are used: no gradient for the weight; rms_norm's rstd.
    check_with(
        r#"
func.func @f(%x: tensor<4x6xf64>, %w: tensor<6xf64>) -> tensor<4xf64> {
  %y, %r = fusion.rms_norm %x weight %w dims = [1] {epsilon = 1.000000e-05 : f64} : (tensor<4x6xf64>, tensor<6xf64>) -> (tensor<4x6xf64>, tensor<4xf64>)
  %t = fusion.tanh %r : (tensor<4xf64>) -> tensor<4xf64>
  return %t : tensor<4xf64>
}"#,
        &[R, POS],
        " wrt=0",
    );
}
