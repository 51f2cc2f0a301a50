//! fuser's C ABI: compile fuser programs from C, C++ or any language with a C FFI.
//!
//! Usage: create a context, parse MLIR text into a module, run a pass pipeline written in
//! MLIR's pipeline syntax (e.g. `builtin.module(tp-default)`), verify, print into a caller
//! buffer or through a callback, and free every handle with its destroy function.
//!
//! Status: every function returns a `fuser_status`; `FUSER_STATUS_OK` is 0. A NULL pointer
//! argument gives `FUSER_STATUS_NULL_ARGUMENT`, text that is not UTF-8 gives
//! `FUSER_STATUS_INVALID_UTF8`, and a failure the compiler diagnosed gives
//! `FUSER_STATUS_ERROR`. Functions that take a `fuser_diagnostics *` (which may be NULL) append
//! their diagnostics to it, also for argument errors. Nothing unwinds across this boundary: an
//! internal panic is caught, returned as `FUSER_STATUS_INTERNAL_ERROR` and recorded as an error
//! diagnostic. The library writes nothing to stdout or stderr (a panic inside the compiler is
//! recorded by a panic hook that stays quiet, see the Rust facade).
//!
//! Pointers (the safety contract of every function): each pointer argument is NULL or valid
//! for its use: a live handle of this library not destroyed yet, a readable NUL-terminated
//! string (or `len` readable bytes), a writable result. NULL is reported as a status; a
//! dangling or misaligned pointer is undefined behaviour, as in any C library.
//!
//! Strings: input strings are NUL-terminated UTF-8, except module text, which is passed with
//! its length. Strings returned inside records are NUL-terminated UTF-8 owned by the
//! diagnostics object, valid until it is cleared or destroyed.
//!
//! Thread safety: a `fuser_context` may be used by several threads at once (parsing with one
//! context from many threads is fine). A `fuser_module` or `fuser_diagnostics` must not be used
//! by two threads at the same time, but may be handed from one thread to another. A module
//! keeps its context alive: the context may be destroyed before its modules.
//!
//! Stack: the parser caps nesting at 512 levels; parsing, canonicalize, cse and printing at
//! that depth fit in a 2 MiB thread stack. For untrusted, deeply nested input and other
//! passes, call from a thread with a larger stack (fuser-opt uses 256 MiB).

#![deny(missing_docs)]
// C names (`fuser_status`), as the header spells them.
#![allow(non_camel_case_types)]
// The safety contract is the same for every entry point and stated once, above (and in the
// header), instead of in a `# Safety` section per function.
#![allow(clippy::missing_safety_doc)]

mod args;
pub mod context;
pub mod diagnostics;
pub mod module;
pub mod status;

pub use context::*;
pub use diagnostics::*;
pub use module::*;
pub use status::*;

#[cfg(test)]
mod tests;
