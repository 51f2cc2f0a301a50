//! `--entry NAME`: the function `fuser-run` runs (and `--check` compares with). Without it the
//! first `func.func` with a body is run; with it, every other function with a body is erased
//! from the module before lowering, so the pipeline, the run and the reference all see only
//! `@NAME` (e.g. the `@f_vjp` that `fusion-autodiff` added next to `@f`).

use fuser_ir::{Context, Ir, OpId};

/// Erases every `func.func` with a body of `module` but `@name`; an error when there is none.
pub fn keep_only(ctx: &Context, ir: &mut Ir, module: OpId, name: &str) -> Result<(), String> {
    let Some(body) = ir.regions(module).first().and_then(|&r| ir.region_entry(r)) else {
        return Err(format!("--entry {name}: the input has no module body"));
    };
    let funcs: Vec<OpId> = ir
        .block_ops(body)
        .filter(|&o| ctx.op_name_str(ir.op_name(o)) == "func.func" && !fuser_dialects::func::is_declaration(ir, o))
        .collect();
    let names: Vec<String> =
        funcs.iter().filter_map(|&f| fuser_dialects::func::symbol_name(ctx, ir, f).map(str::to_string)).collect();
    if !names.iter().any(|n| n == name) {
        return Err(format!("--entry {name}: no func.func @{name} with a body (functions: {})", names.join(", ")));
    }
    for f in funcs {
        if fuser_dialects::func::symbol_name(ctx, ir, f) != Some(name) {
            ir.erase_op(f);
        }
    }
    Ok(())
}
