//! A pass plugin for `mlir-opt-19`: `--load-pass-plugin=libfuser_mlir_plugin.so` adds every
//! fuser pass and named pipeline as an MLIR pass named `fuser-<name>`, e.g.
//! `--pass-pipeline='builtin.module(fuser-tp-default{streams=2})'`.
//!
//! Two halves in one shared library: `csrc/plugin.cpp` (the `mlir::Pass` subclass and its
//! registration, built by build.rs against LLVM 19's headers, resolving MLIR from the
//! executable) and this crate's C ABI ([`abi`]), which runs fuser on MLIR generic text
//! through `fuser-mlir-text`. [`entry`] exports MLIR's plugin entry point. Nothing unwinds
//! into C++: every exported function catches panics and reports them as errors.

pub mod abi;
pub mod entry;
mod registry;
