//! Where an output of a run comes from, for messages about it: output `i` is result `i` of
//! the function, the `i`-th operand of its `func.return`, and that operand is the result of
//! some op (or an argument of the function, returned unchanged). A report about the output
//! names all of it and points at the op's location, which is the line a user reads.

use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value, ValueDef};

/// The value behind output `index` of a function.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputOrigin {
    pub index: usize,
    /// The function's symbol name.
    pub func: String,
    /// The location of the value: its defining op's, an argument's own (or the function's).
    pub loc: Attr,
    /// What the value is: `the result of 'fusion.linear'`, `argument #1`.
    pub value: String,
    /// For an op result: its number and the op's number of results.
    pub op_result: Option<(u32, usize)>,
}

impl OutputOrigin {
    /// `output #0 (result #0 of @f, the result of 'fusion.linear')`.
    pub fn describe(&self) -> String {
        format!("output #{} (result #{} of @{}, {})", self.index, self.index, self.func, self.value)
    }

    /// [`Self::describe`] with the value's SSA name as the source spells it, when known:
    /// `output #0 (result #0 of @f, %y, the result of 'fusion.linear')`.
    pub fn describe_named(&self, ssa_name: Option<&str>) -> String {
        match ssa_name {
            Some(name) => {
                format!("output #{} (result #{} of @{}, {name}, {})", self.index, self.index, self.func, self.value)
            }
            None => self.describe(),
        }
    }
}

/// The `func.return` ending the body of `func`.
fn return_op(ctx: &Context, ir: &Ir, func: OpId) -> Option<OpId> {
    let entry = ir.regions(func).first().and_then(|&r| ir.region_entry(r))?;
    ir.last_op(entry).filter(|&op| ctx.op_name_str(ir.op_name(op)) == "func.return")
}

/// The operands of the `func.return` ending `func` (empty without one).
pub fn returned_values(ctx: &Context, ir: &Ir, func: OpId) -> Vec<Value> {
    return_op(ctx, ir, func).map(|ret| ir.operands(ret).to_vec()).unwrap_or_default()
}

/// What the returned value is: the result of its op (numbered when the op has several).
fn value_text(ctx: &Context, ir: &Ir, op: OpId, result: u32) -> String {
    let name = ctx.op_name_str(ir.op_name(op));
    match ir.results(op).len() {
        1 => format!("the result of '{name}'"),
        _ => format!("result #{result} of '{name}'"),
    }
}

/// The origin of output `index` of `func`; `None` when the function has no `func.return` with
/// that many operands.
pub fn output_origin(ctx: &Context, ir: &Ir, func: OpId, index: usize) -> Option<OutputOrigin> {
    let ret = return_op(ctx, ir, func)?;
    let value = *ir.operands(ret).get(index)?;
    let func_name = fuser_dialects::func::symbol_name(ctx, ir, func).unwrap_or("?").to_string();
    let (loc, text, op_result) = match ir.value_def(value) {
        ValueDef::OpResult { op, index: result } => {
            (ir.loc(op), value_text(ctx, ir, op, result), Some((result, ir.results(op).len())))
        }
        ValueDef::BlockArg { index: arg, .. } => {
            (ir.value_loc(value).unwrap_or_else(|| ir.loc(func)), format!("argument #{arg}, returned unchanged"), None)
        }
        ValueDef::Placeholder => (ir.loc(ret), "an undefined value".to_string(), None),
    };
    Some(OutputOrigin { index, func: func_name, loc, value: text, op_result })
}

/// The origins of every output of `func`, in order (`None` where unknown).
pub fn output_origins(ctx: &Context, ir: &Ir, func: OpId, outputs: usize) -> Vec<Option<OutputOrigin>> {
    (0..outputs).map(|i| output_origin(ctx, ir, func, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::diag::{SourceFile, file_line_col};

    #[test]
    fn outputs_name_their_result_value_and_line() {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let text = "func.func @f(%a: i32, %b: i32) -> (i32, i32) {\n  %s = arith.addi %a, %b : i32\n  return %s, %b : i32, i32\n}";
        let m = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).unwrap();
        let f = crate::driver::first_function(&ctx, &ir, m).unwrap();
        let origins: [Option<OutputOrigin>; 3] = output_origins(&ctx, &ir, f, 3).try_into().unwrap();
        let [Some(sum), Some(arg), None] = origins else { panic!("two outputs with origins, a third without") };
        assert_eq!(sum.describe(), "output #0 (result #0 of @f, the result of 'arith.addi')");
        assert_eq!(file_line_col(&ctx, sum.loc), Some(("t.mlir".to_string(), 2, 8)));
        assert_eq!(arg.describe(), "output #1 (result #1 of @f, argument #1, returned unchanged)");
    }
}
