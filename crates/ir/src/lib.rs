//! fuser-ir: the core of fuser's MLIR-style IR.
//!
//! # Layers (a module only imports modules listed above it)
//! 1. [`arena`], [`uniquer`], [`apint`]: storage primitives.
//! 2. [`types`], [`attrs`]: the builtin type and attribute data (uniqued handles).
//! 3. [`ir`]: the mutable IR storage (ops, blocks, regions, values, use lists, clone, walk).
//!    It stores handles but never interprets types, attributes or names.
//! 4. [`context`], [`registry`], [`asm`], [`rewrite_api`], [`diag`]: the shared context (uniquing
//!    plus the registry of op definitions) and the abstract interfaces op hooks are written
//!    against. These five form one layer: op definitions name the parser/printer/rewriter
//!    interfaces, the context holds the definitions. [`declare`] belongs here too: the
//!    `declare_op!` macro and the declared op structure an `OpDef` may carry.
//! 5. Parser, printer, verifier, pattern driver and pass manager, built on the layers below.
//!
//! The crate knows no dialect: builtin/func/arith and our dialects live in `fuser-dialects`.

pub mod apint;
pub mod arena;
pub mod asm;
pub mod attrs;
pub mod context;
pub mod declare;
pub mod diag;
pub mod ir;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod registry;
pub mod rewrite;
pub mod rewrite_api;
pub mod split;
pub mod types;
pub mod uniquer;
pub mod verifier;
pub mod verify_diagnostics;

pub use attrs::{Attr, AttrKind, Ident};
pub use context::Context;
pub use diag::{Diagnostic, Severity};
pub use ir::{BlockId, Ir, OpId, OpName, OperationState, RegionId, Value};
pub use types::{Type, TypeKind};
