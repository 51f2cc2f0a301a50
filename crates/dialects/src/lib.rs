//! fuser-dialects: the builtin/func/arith/cf subset we share with MLIR (same names, syntax and
//! semantics as mlir-opt-19), and our own dialects.
//!
//! Every op is a `static` [`OpDef`](fuser_ir::registry::OpDef) declared next to its hooks;
//! every dialect is a `static` [`DialectDef`](fuser_ir::registry::DialectDef). [`registry`]
//! registers them all; [`doc::dialect_doc`] renders a dialect's reference page from the same
//! definitions.

pub mod arith;
pub mod builtin;
pub mod cf;
pub mod comm;
pub mod doc;
pub mod func;
pub mod func_indirect;
pub mod fusion;
pub mod host;
pub mod reduction;
mod support;
mod symbols;

pub use support::{
    IntConst, Scalar, dict_of, element_type, empty_state, inherent_attr, int_attr, int_const, scalar_value, type_str,
};

use fuser_ir::registry::{DialectDef, Registry};

/// The dialects of this crate, in documentation order.
pub fn dialects() -> [&'static DialectDef; 7] {
    [&builtin::BUILTIN, &func::FUNC_DIALECT, &arith::ARITH, &cf::CF, &fusion::FUSION, &host::HOST, &comm::COMM]
}

/// Every dialect of fuser, registered.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    for d in dialects() {
        r.register(d);
    }
    r.register_attr_canonicalizer("arith", arith::canonical_attr_body);
    r
}
