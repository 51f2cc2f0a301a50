//! Types and attributes as text inside the parser's diagnostic messages (`'i64' vs 'i32'`):
//! the printer's own forms, so messages spell them exactly as mlir-opt does.

use crate::attrs::Attr;
use crate::context::Context;
use crate::types::Type;

/// A type in MLIR syntax (no aliases).
pub fn type_to_string(ctx: &Context, t: Type) -> String {
    crate::printer::print_type(ctx, t)
}

/// An attribute in MLIR syntax (integers and floats with their `: type`).
pub fn attr_to_string(ctx: &Context, a: Attr) -> String {
    crate::printer::print_attr(ctx, a)
}
