//! fuser, embedded: the one stable Rust API to compile multi-GPU tensor programs.
//!
//! - [`Compiler`]: a context with fuser's dialects and passes (and, through
//!   [`CompilerBuilder`], an embedder's own). It parses MLIR text into a [`Module`], runs
//!   pipelines written in MLIR's pipeline syntax (`builtin.module(tp-default)`), verifies, and
//!   prints in the custom or generic form.
//! - [`Compiler::autodiff`]: the reverse-mode derivative of a fusion function as three
//!   programs ([`Gradients`]: the joint `_vjp`, and its `_fwd`/`_bwd` split).
//! - [`builder`]: builds fusion programs (meshes, sharded tensors, matmul/linear/elementwise/
//!   sum/...) from Rust, as a frontend that traces a model would.
//! - [`extend`]: what an outside dialect, op or pass is written against.
//! - Diagnostics come back as data ([`Diagnostic`]: severity, location, message, notes, and
//!   the text `fuser-opt` would print); nothing here prints, exits, or lets a panic escape.
//!
//! ```
//! use fuser::{Compiler, PrintOptions};
//!
//! let compiler = Compiler::new();
//! let text = "fusion.mesh @tp = [0, 1]\n\
//!     func.func @f(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>)\n\
//!         -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>> {\n\
//!       %y = fusion.set %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>)\n\
//!           -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>\n\
//!       return %y : tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>\n\
//!     }\n";
//! let mut module = compiler.parse("allgather.mlir", text)?;
//! compiler.run_pipeline(&mut module, "builtin.module(tp-default)")?;
//! let lowered = compiler.print(&module, &PrintOptions::default());
//! assert!(lowered.contains("comm.allgather"));
//! # Ok::<(), fuser::Error>(())
//! ```
//!
//! Stack: the compiler recurses over nested regions, and the parser caps nesting at 512
//! levels; `tests/nesting.rs` parses, canonicalizes, CSEs and prints input at that depth on a
//! thread with a 2 MiB stack. Other passes on such input are not measured: a larger stack
//! (`fuser-opt` uses 256 MiB) is the safe choice for untrusted, deeply nested input.

#![deny(missing_docs)]

mod autodiff;
pub mod builder;
mod compiler;
mod diagnostics;
pub mod extend;
mod module;
mod panics;

pub use autodiff::Gradients;
pub use compiler::{Compiler, CompilerBuilder};
pub use diagnostics::{Diagnostic, Error, Location, Note, Severity};
pub use module::{Module, PrintOptions};

/// The Rust example of `docs/embedding.md`, run as a doctest so the guide cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/embedding.md")]
pub struct EmbeddingGuide;
