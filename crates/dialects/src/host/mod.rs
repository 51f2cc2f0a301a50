//! The `host` dialect: what the CPU side of one rank runs. Buffers and views (`types`),
//! allocation, views, copies, compute in destination-passing style, loops, conditionals,
//! streams, and the executing rank as a runtime value, so that one host program serves every
//! rank. Index math uses `arith`.

pub mod types;

#[cfg(test)]
mod type_tests;

use fuser_ir::registry::DialectDef;

pub static HOST: DialectDef = DialectDef {
    namespace: "host",
    summary: "Host programs of one rank: buffers, views, streams, loops and compute in destination-passing style",
    description: "A host program is a `func.func` whose body uses `host`, `comm` and `arith` ops. \
It is rank-generic: `host.rank` and `host.world_size` are runtime values, so the same program \
runs on every rank of the team.",
    ops: &[],
    materialize_constant: None,
    types: &[&types::BUF, &types::VIEW, &types::STREAM],
    attrs: &[],
    opaque_attrs: false,
};
