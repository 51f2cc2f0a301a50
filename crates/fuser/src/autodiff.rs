//! [`Compiler::autodiff`]: the reverse-mode derivative of a fusion function as three
//! programs ([`Gradients`]), each a [`Module`] of its own that lowers and runs like the
//! forward: the joint `@NAME_vjp`, and its split into `@NAME_fwd` and `@NAME_bwd`.
//!
//! This is the `fusion-autodiff` pass (docs/dev/autodiff.md) run on a copy of the module,
//! followed by one copy per derived function holding only that function (and everything
//! else of the module: meshes, declarations), as `fuser-run --entry NAME_vjp` runs it.

use crate::compiler::Compiler;
use crate::diagnostics::{Error, resolve_all};
use crate::module::Module;
use crate::panics::guarded;
use fuser_dialects::func;
use fuser_ir::{AttrKind, Context, Ir, OpId};
use fuser_passes::fusion::autodiff::{differentiate_module, joint::is_float_type};

/// The derivative of one function `@NAME`, made by [`Compiler::autodiff`].
///
/// Each module holds the source module's meshes and exactly one function with a body:
///
/// | field | function | arguments | results |
/// |---|---|---|---|
/// | `vjp` | `@NAME_vjp` | `@NAME`'s arguments, then one cotangent per floating-point result | `@NAME`'s results, then one gradient per [`wrt`](Gradients::wrt) argument |
/// | `fwd` | `@NAME_fwd` | `@NAME`'s arguments | `@NAME`'s results, then the saved values |
/// | `bwd` | `@NAME_bwd` | the saved values, then the cotangents | the gradients |
///
/// Cotangents have their result's type and gradients their argument's, sharding included.
#[derive(Clone, Debug)]
pub struct Gradients {
    /// The joint forward and backward, `@NAME_vjp`.
    pub vjp: Module,
    /// The forward that also returns what the backward reads, `@NAME_fwd`.
    pub fwd: Module,
    /// The backward from the saved values and the cotangents, `@NAME_bwd`.
    pub bwd: Module,
    /// What each saved value is (`@NAME_fwd`'s `fusion.saved`: `"argument 0"`,
    /// `"result 1 of fusion.layer_norm (forward op 3)"`, ...), one per saved value, in order.
    pub saved: Vec<String>,
    /// The arguments differentiated, by index: one gradient each, in this order.
    pub wrt: Vec<usize>,
    /// Which results of `@NAME` get a cotangent (the floating-point ones), one flag per result.
    pub cotangents: Vec<bool>,
}

impl Compiler {
    /// Differentiates the function `@func` of `module` (left unchanged) with respect to the
    /// arguments `wrt` (indices; `None`: every floating-point argument) and returns the joint
    /// vector-Jacobian product and its forward/backward split, each as a module of its own.
    ///
    /// Errors (diagnostics at the op or function concerned): no function `@func` with a body,
    /// an empty or repeated `wrt`, an index out of range or naming an integer argument, an op
    /// without a gradient rule on the path from a `wrt` argument to a result.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let text = "func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {\n\
    ///   %y = fusion.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n\
    ///   %z = fusion.exp %y : (tensor<4xf32>) -> tensor<4xf32>\n\
    ///   return %z : tensor<4xf32>\n}\n";
    /// let module = compiler.parse("f.mlir", text)?;
    /// let g = compiler.autodiff(&module, "f", Some(&[1]))?;
    /// let vjp = g.vjp.print(&Default::default());
    /// // @f's arguments and one cotangent in; @f's result and the gradient of %w out.
    /// assert!(vjp.contains("func.func @f_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)"));
    /// assert!(!vjp.contains("func.func @f(") && !vjp.contains("@f_fwd"));
    /// assert!(g.fwd.print(&Default::default()).contains("func.func @f_fwd("));
    /// assert!(g.bwd.print(&Default::default()).contains("func.func @f_bwd("));
    /// assert_eq!((g.wrt.as_slice(), g.cotangents.as_slice()), (&[1][..], &[true][..]));
    /// assert_eq!(g.saved.len(), 2); // %x, and exp's result (its own rule reads it)
    ///
    /// // An integer argument has no gradient: the error names it.
    /// let m = compiler.parse("g.mlir", "func.func @g(%i: tensor<4xi64>) -> tensor<4xi64> {\n  return %i : tensor<4xi64>\n}\n")?;
    /// let err = compiler.autodiff(&m, "g", Some(&[0])).unwrap_err();
    /// assert!(err.to_string().contains("argument 0 of @g (of type 'tensor<4xi64>') is not floating-point"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn autodiff(&self, module: &Module, func: &str, wrt: Option<&[usize]>) -> Result<Gradients, Error> {
        if !std::sync::Arc::ptr_eq(&self.shared, &module.shared) {
            return Err(Error::message("the module was made by another Compiler"));
        }
        if func.is_empty() {
            return Err(Error::message("autodiff: the function name is empty"));
        }
        if let Some(w) = wrt {
            if w.is_empty() {
                return Err(Error::message(format!("autodiff: wrt is empty: nothing to differentiate @{func} by")));
            }
            if let Some((i, &a)) = w.iter().enumerate().find(|(i, a)| w[..*i].contains(a)) {
                return Err(Error::message(format!("autodiff: wrt names argument {a} twice (at {i})")));
            }
        }
        guarded("autodiff", || {
            let ctx = &self.shared.ctx;
            let mut joint = module.clone();
            let resolved = resolve_wrt(ctx, &joint.ir, joint.op, func, wrt);
            differentiate_module(ctx, &mut joint.ir, joint.op, func, wrt.unwrap_or(&[]))
                .map_err(|d| Error::new(resolve_all(ctx, &joint.sources, &[d])))?;
            self.verify(&joint)?;
            let only = |suffix: &str| -> Result<Module, Error> {
                let mut m = joint.clone();
                keep_only(ctx, &mut m.ir, m.op, &format!("{func}{suffix}"))?;
                Ok(m)
            };
            let (vjp, fwd, bwd) = (only("_vjp")?, only("_fwd")?, only("_bwd")?);
            let fwd_func = function(ctx, &fwd.ir, fwd.op, &format!("{func}_fwd"));
            let saved = fwd_func.map(|f| saved_names(ctx, &fwd.ir, f)).unwrap_or_default();
            let cotangents = function(ctx, &module.ir, module.op, func)
                .and_then(|f| func::signature(ctx, &module.ir, f))
                .map(|(_, results)| results.iter().map(|&t| is_float_type(ctx, t)).collect())
                .unwrap_or_default();
            Ok(Gradients { vjp, fwd, bwd, saved, wrt: resolved, cotangents })
        })
    }
}

/// The function `@name` (with a body) at the top level of `module`.
fn function(ctx: &Context, ir: &Ir, module: OpId, name: &str) -> Option<OpId> {
    let body = ir.regions(module).first().and_then(|&r| ir.region_entry(r))?;
    ir.block_ops(body).find(|&o| {
        ctx.op_name_str(ir.op_name(o)) == "func.func"
            && !func::is_declaration(ir, o)
            && func::symbol_name(ctx, ir, o) == Some(name)
    })
}

/// `wrt` as given, or every floating-point argument of `@name` (what the pass differentiates
/// by when given none).
fn resolve_wrt(ctx: &Context, ir: &Ir, module: OpId, name: &str, wrt: Option<&[usize]>) -> Vec<usize> {
    if let Some(w) = wrt {
        return w.to_vec();
    }
    let Some((inputs, _)) = function(ctx, ir, module, name).and_then(|f| func::signature(ctx, ir, f)) else {
        return Vec::new();
    };
    (0..inputs.len()).filter(|&i| is_float_type(ctx, inputs[i])).collect()
}

/// Erases every function with a body of `module` but `@name`.
fn keep_only(ctx: &Context, ir: &mut Ir, module: OpId, name: &str) -> Result<(), Error> {
    if function(ctx, ir, module, name).is_none() {
        return Err(Error::message(format!("autodiff: fusion-autodiff made no @{name}")));
    }
    let Some(body) = ir.regions(module).first().and_then(|&r| ir.region_entry(r)) else { return Ok(()) };
    let others: Vec<OpId> = ir
        .block_ops(body)
        .filter(|&o| {
            ctx.op_name_str(ir.op_name(o)) == "func.func"
                && !func::is_declaration(ir, o)
                && func::symbol_name(ctx, ir, o) != Some(name)
        })
        .collect();
    for f in others {
        ir.erase_op(f);
    }
    Ok(())
}

/// The strings of `func`'s `fusion.saved` attribute.
fn saved_names(ctx: &Context, ir: &Ir, func: OpId) -> Vec<String> {
    let Some(list) = ctx.dict_get(ir.attrs(func), "fusion.saved") else { return Vec::new() };
    match ctx.attr_kind(list) {
        AttrKind::Array(items) => items.iter().filter_map(|&a| ctx.attr_str(a).map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}
