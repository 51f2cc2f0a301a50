//! fuser-ir: the core of fuser's MLIR-style IR.
//!
//! # Layers (a file only imports files of its layer or of a layer listed above it)
//! `tests/layering.rs` checks this on the source tree (and that no import circle but the known
//! ones inside a layer exists); `python3 tools/modgraph.py crates/ir` prints the graph's circles.
//! 1. [`arena`], [`uniquer`], [`apint`]: storage primitives.
//! 2. [`types`], [`attrs`]: the builtin type and attribute data, over the uniqued handles
//!    `Type`, `Attr`, `Ident` (`handles.rs`) and the parameters of dialect types and
//!    attributes (`dialect_data.rs`), which both hold without importing each other; and
//!    [`apfloat`], the soft float of every [`types::FloatKind`] (over [`apint`]).
//! 3. [`ir`]: the mutable IR storage (ops, blocks, regions, values, use lists, clone, walk).
//!    It stores handles but never interprets types, attributes or names.
//! 4. Diagnostics and definition data: [`Diagnostic`] and [`Severity`] (`diag/diagnostic.rs`),
//!    source buffers (`diag/source.rs`), argument descriptions (`registry/args.rs`). Plain data,
//!    importing only layers 1–2.
//! 5. [`context`]: uniqued types, attributes and names. It holds the registry opaquely: op
//!    definitions' hooks take a `&Context`, so the context names no definition.
//! 6. Interfaces op hooks are written against: [`asm`] (`OpAsmParser`, `OpAsmPrinter`),
//!    [`rewrite_api`] (`Rewriter`), [`declare`] (the declared op structure and its constraints),
//!    `diag/location.rs` (the `file:line:col` of a location).
//! 7. Definitions: [`registry`] (`OpDef`, `DialectDef`, hook types, `Registry`;
//!    `registry/lookup.rs` adds the `Context` methods that read the registry: `Context::new`,
//!    `op_def`, `dialect`),
//!    `declare/accessors.rs` (typed operand/result accessors), `declare/macros.rs` (`declare_op!`).
//! 8. [`printer`]: its data (`text`, `options`, `op_names`, `names`, `aliases`), then its `state`,
//!    then the files that print.
//! 9. [`parser`], [`verifier`], and `diag/render.rs` (mlir-opt's diagnostic text).
//! 10. [`rewrite`] (the pattern driver), [`split`], [`verify_diagnostics`].
//! 11. [`pass`]: the pass manager (its `manager`, `pipeline` and `registry` files are the one
//!     import circle left in the crate).
//!
//! [`diag`] and this file only re-export names of the files above.
//!
//! The crate knows no dialect: builtin/func/arith and our dialects live in `fuser-dialects`.

pub mod apfloat;
pub mod apint;
pub mod arena;
pub mod asm;
pub mod attrs;
pub mod context;
pub mod declare;
pub mod diag;
mod dialect_data;
mod handles;
pub mod ir;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod registry;
pub mod rewrite;
pub mod rewrite_api;
pub mod split;
#[cfg(test)]
mod test_rng;
pub mod types;
pub mod uniquer;
pub mod verifier;
pub mod verify_diagnostics;

pub use attrs::{Attr, AttrKind, Ident};
pub use context::Context;
pub use diag::{Diagnostic, Severity};
pub use ir::{BlockId, Ir, OpId, OpName, OperationState, RegionId, Value};
pub use types::{Type, TypeKind};
