//! `fusion-autodiff`: reverse-mode differentiation of fusion functions (docs/dev/autodiff.md).
//! For `@NAME` it adds `@NAME_vjp` (the joint forward and backward, [`joint`]), and
//! `@NAME_fwd`/`@NAME_bwd` (its split at the saved values, [`split`]). Each op's rule is in the
//! file of its family, written with the fusion ops of [`builder`].

pub mod attention;
pub mod builder;
pub mod elementwise;
pub mod gemm;
pub mod grads;
pub mod joint;
pub mod lookup;
pub mod loss;
pub mod math;
pub mod norm;
pub mod reduce;
pub mod rules;
pub mod shape;
pub mod softmax;
pub mod split;

use fuser_dialects::func;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};

pub static FUSION_AUTODIFF: PassInfo = PassInfo {
    name: "fusion-autodiff",
    display: "FusionAutodiff",
    summary: "Add the reverse-mode derivative (@NAME_vjp, @NAME_fwd, @NAME_bwd) of fusion functions",
    description: "For `func.func @NAME` (option `func`; default: every function with a body), adds \
`@NAME_vjp` (`@NAME`'s arguments, then one cotangent per floating-point result; returns the \
results, then one gradient per `wrt` argument), `@NAME_fwd` (returns the results, then the values \
the backward reads, named by its `fusion.saved` attribute; a cheap op's value whose operands are \
saved is recomputed by `@NAME_bwd` instead) and `@NAME_bwd` (the saved values and \
the cotangents in, the gradients out). `wrt` lists argument indices (default: every \
floating-point argument). Cotangents have their result's type and gradients their argument's \
(sharding included, through a `fusion.set`); the backward's intermediates are unannotated, for \
`fusion-propagate-sharding`. Norms are rebuilt with their `mean`/`rstd` results. An op without a \
rule (sdpa, embedding, cross_entropy) on the path to a gradient is an error. \
Run it before `fusion-propagate-sharding`.",
    anchor: Some("builtin.module"),
    options: OPTIONS,
    create: |o| {
        let func = o.get_str("func").to_string();
        let wrt = o.get_int_list("wrt");
        if wrt.iter().any(|&i| i < 0) {
            return Err("fusion-autodiff: wrt indices must not be negative".into());
        }
        Ok(Box::new(Autodiff { func, wrt: wrt.into_iter().map(|i| i as usize).collect(), values: o.clone() }))
    },
};

static OPTIONS: &[OptionDef] = &[
    OptionDef::new("func", OptionType::String, "", "The function to differentiate (empty: every function with a body)"),
    OptionDef::list(
        "wrt",
        OptionType::Int,
        "",
        "Indices of the arguments to differentiate with respect to (empty: every floating-point argument)",
    ),
];

struct Autodiff {
    func: String,
    wrt: Vec<usize>,
    values: OptionValues,
}

impl Pass for Autodiff {
    fn info(&self) -> &'static PassInfo {
        &FUSION_AUTODIFF
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, module: OpId) -> Result<PassOutcome, Diagnostic> {
        differentiate_module(ctx, ir, module, &self.func, &self.wrt).map(PassOutcome::from_changed)
    }
}

/// Differentiates the function `name` of `module` (every function with a body when empty)
/// with respect to the arguments `wrt` (every floating-point one when empty).
pub fn differentiate_module(
    ctx: &Context,
    ir: &mut Ir,
    module: OpId,
    name: &str,
    wrt: &[usize],
) -> Result<bool, Diagnostic> {
    let Some(body) = ir.regions(module).first().and_then(|&r| ir.region_entry(r)) else { return Ok(false) };
    let funcs: Vec<(OpId, String)> = ir
        .block_ops(body)
        .filter(|&o| ctx.op_name_str(ir.op_name(o)) == "func.func" && !func::is_declaration(ir, o))
        .filter_map(|o| func::symbol_name(ctx, ir, o).map(|n| (o, n.to_string())))
        .collect();
    let names: Vec<&str> = funcs.iter().map(|(_, n)| n.as_str()).collect();
    let targets: Vec<(OpId, String)> = if name.is_empty() {
        funcs.clone()
    } else {
        let Some(f) = funcs.iter().find(|(_, n)| n == name) else {
            return Err(Diagnostic::error(
                ir.loc(module),
                format!("fusion-autodiff: no function @{name} with a body (functions: {})", names.join(", ")),
            ));
        };
        vec![f.clone()]
    };
    for (f, n) in &targets {
        for suffix in ["_vjp", "_fwd", "_bwd"] {
            if names.contains(&format!("{n}{suffix}").as_str()) {
                return Err(joint::error_at(ir, *f, format!("@{n}{suffix} exists already")));
            }
        }
        let wrt: Vec<usize> = if wrt.is_empty() {
            let (inputs, _) = func::signature(ctx, ir, *f).unwrap_or((&[], &[]));
            (0..inputs.len()).filter(|&i| joint::is_float_type(ctx, inputs[i])).collect()
        } else {
            wrt.to_vec()
        };
        let j = joint::build_joint(ctx, ir, *f, n, &wrt)?;
        split::split(ctx, ir, &j, n);
    }
    Ok(!targets.is_empty())
}
