//! The MLIR bridge: fuser inside a real MLIR (melior 0.22, LLVM/MLIR 19).
//!
//! - [`convert`]: a melior op to fuser IR and back, through MLIR's generic text with debug
//!   info, which fuser prints byte-identically: nothing is lost, locations included.
//! - [`external`]: every fuser pass and named pipeline as an MLIR external pass, so one MLIR
//!   `PassManager` can run MLIR's passes and fuser's on the same module. Fuser diagnostics
//!   become MLIR diagnostics ([`emit`]); a failing fuser pass fails the MLIR pass.
//!
//! fuser's ops are unknown to MLIR: the MLIR context must allow unregistered dialects
//! ([`prepare_context`] does that).
//!
//! Supporting modules: [`error`], [`text`] (print and parse through melior, collecting
//! MLIR's diagnostics), [`location`] (`loc(...)` text to an MLIR location), [`handover`]
//! (the op a pass runs on, printed with its ancestors' shells and symbol siblings), [`transfer`]
//! (moving a transformed op's contents into the op MLIR handed over).

pub mod convert;
pub mod emit;
pub mod error;
pub mod external;
pub mod handover;
pub mod location;
pub mod text;
pub mod transfer;

pub use convert::{to_fuser, to_mlir};
pub use error::BridgeError;
pub use external::{FuserPasses, create_pass};

/// Lets `context` hold fuser's ops (unregistered for MLIR).
pub fn prepare_context(context: &melior::Context) {
    context.set_allow_unregistered_dialects(true);
}
