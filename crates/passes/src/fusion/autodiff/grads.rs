//! What a rule returns, and the cotangent every single-result rule reads.

use fuser_ir::ir::Value;

/// The contributions to each operand of an op (`None`: no gradient, e.g. an integer operand
/// or a condition).
pub type Grads = Vec<Option<Value>>;

/// The cotangent of the op's first result, which every single-result rule needs.
pub fn first(g: &[Option<Value>], op_name: &str) -> Result<Value, String> {
    g.first()
        .copied()
        .flatten()
        .ok_or_else(|| format!("'{op_name}': the gradient of an auxiliary result is not supported"))
}
