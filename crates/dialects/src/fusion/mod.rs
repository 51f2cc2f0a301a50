//! The `fusion` dialect: tensor programs with device (DID) and stream sharding.

use fuser_ir::registry::DialectDef;

pub static FUSION: DialectDef = DialectDef {
    namespace: "fusion",
    summary: "Tensor programs whose tensor types say how they are sharded over devices and streams",
    description: "",
    ops: &[],
    materialize_constant: None,
    types: &[],
    attrs: &[],
    opaque_attrs: false,
};
