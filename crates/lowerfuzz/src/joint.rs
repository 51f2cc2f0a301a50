//! The program an autodiff case checks ([`crate::generate::Case::autodiff`]): the joint
//! `@fuzz_vjp` that `fusion-autodiff{func=fuzz}` adds next to the program's `@fuzz`
//! (docs/dev/autodiff.md), alone in its module, as `fuser-run --entry fuzz_vjp` runs it. Its
//! first arguments are the program's (so the program's given input values apply by index),
//! then one cotangent per float result; its results are the program's, then one gradient per
//! float argument.
//!
//! A `fusion-autodiff` failure is classified like a failed lowering: a panic is a finding; a
//! clean diagnostic (an op without a rule, an integer program) is a rejection whose reason
//! starts with [`AUTODIFF_REJECTION`]; a diagnostic that goes away without verification after
//! the pass means the pass built invalid IR (a finding).

use crate::passes::{found, is_panic, parse_verified, pass_registry, run_pipeline};
use crate::verdict::{FindingClass, Verdict, normalized};
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir, OpId};

/// The function every generated program defines.
pub const FUNC: &str = "fuzz";

/// The joint function an autodiff case checks.
pub const JOINT: &str = "fuzz_vjp";

/// The pass pipeline that differentiates the program.
pub const AUTODIFF_PIPELINE: &str = "builtin.module(fusion-autodiff{func=fuzz})";

/// The start of the reason of a case that `fusion-autodiff` refused.
pub const AUTODIFF_REJECTION: &str = "autodiff: ";

/// The text of the module holding only the joint `@fuzz_vjp` of the program `text`.
pub fn joint_text(text: &str) -> Result<String, Verdict> {
    let ctx = Context::new(fuser_dialects::registry());
    let registry = pass_registry();
    let (mut ir, module) = parse_verified(&ctx, text).map_err(|e| found(FindingClass::InvalidProgram, e))?;
    if let Err(e) = run_pipeline(&ctx, &registry, &mut ir, module, AUTODIFF_PIPELINE, true) {
        if is_panic(&e) {
            return Err(found(FindingClass::Panic, e));
        }
        let (mut ir, module) = parse_verified(&ctx, text).map_err(|e| found(FindingClass::InvalidProgram, e))?;
        return Err(match run_pipeline(&ctx, &registry, &mut ir, module, AUTODIFF_PIPELINE, false) {
            Ok(()) => found(FindingClass::VerifierAfterPass, e),
            Err(_) => Verdict::Rejected { reason: format!("{AUTODIFF_REJECTION}{}", normalized(&e, 90)) },
        });
    }
    keep_only(&ctx, &mut ir, module, JOINT)?;
    Ok(print_module(&ctx, &ir, module, &PrintOptions::default()))
}

/// Erases every function with a body of `module` but `@keep` (`fuser-run --entry`); a
/// finding when there is no `@keep`.
fn keep_only(ctx: &Context, ir: &mut Ir, module: OpId, keep: &str) -> Result<(), Verdict> {
    let body = ir
        .regions(module)
        .first()
        .and_then(|&r| ir.region_entry(r))
        .ok_or_else(|| found(FindingClass::NotLowered, "fusion-autodiff left no module body"))?;
    let funcs: Vec<OpId> = ir
        .block_ops(body)
        .filter(|&o| ctx.op_name_str(ir.op_name(o)) == "func.func" && !fuser_dialects::func::is_declaration(ir, o))
        .collect();
    if !funcs.iter().any(|&f| fuser_dialects::func::symbol_name(ctx, ir, f) == Some(keep)) {
        return Err(found(FindingClass::NotLowered, format!("fusion-autodiff succeeded without adding @{keep}")));
    }
    for f in funcs {
        if fuser_dialects::func::symbol_name(ctx, ir, f) != Some(keep) {
            ir.erase_op(f);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MUL: &str = r#"fusion.mesh @m = [0, 1]
func.func @fuzz(%a: tensor<4x8xf32, #fusion.shard<@m, [[], [DIDx]]>>, %b: tensor<4x8xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@m, [[], [DIDx]]>> {
  %y = fusion.mul %a, %b : (tensor<4x8xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<4x8xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@m, [[], [DIDx]]>>
  return %y : tensor<4x8xf32, #fusion.shard<@m, [[], [DIDx]]>>
}
"#;

    #[test]
    fn the_joint_is_alone_with_cotangents_and_gradients() {
        let joint = joint_text(MUL).unwrap_or_else(|v| panic!("{v:?}"));
        assert!(joint.contains("func.func @fuzz_vjp("), "{joint}");
        assert!(!joint.contains("func.func @fuzz("), "{joint}");
        assert!(!joint.contains("@fuzz_fwd") && !joint.contains("@fuzz_bwd"), "{joint}");
        let ctx = Context::new(fuser_dialects::registry());
        let (ir, module) = parse_verified(&ctx, &joint).expect("the joint parses");
        let f = fuser_runtime::driver::first_function(&ctx, &ir, module).expect("a function");
        let (ins, outs) = fuser_dialects::func::signature(&ctx, &ir, f).expect("signature");
        // a, b, the cotangent of y; y, the gradients of a and b.
        assert_eq!((ins.len(), outs.len()), (3, 3));
    }

    #[test]
    fn a_bad_program_is_no_rejection() {
        assert!(matches!(joint_text("func.func @fuzz("), Err(Verdict::Found(_))));
    }
}
