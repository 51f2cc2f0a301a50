//! The `comm` dialect: collectives and point-to-point communication of host programs.

use fuser_ir::registry::DialectDef;

pub static COMM: DialectDef = DialectDef {
    namespace: "comm",
    summary: "Collectives and point-to-point communication posted by host programs",
    description: "",
    ops: &[],
    materialize_constant: None,
    types: &[],
    attrs: &[],
    opaque_attrs: false,
};
