//! Building fusion programs from Rust, without text: meshes, functions over sharded tensors,
//! and the fusion tensor ops (matmul, linear, elementwise, cast, set, sum, broadcast, reshape,
//! permute). A program built here prints exactly as the same program parsed from text.
//!
//! Files: `types.rs` (element types, [`Sharding`], [`TensorType`]), `program.rs`
//! ([`ProgramBuilder`], [`Mesh`]), `function.rs` ([`FunctionBuilder`], [`Tensor`]).

mod function;
mod program;
mod types;

pub use function::{FunctionBuilder, Tensor};
pub use program::{Mesh, ProgramBuilder};
pub use types::{Attribute, DeviceAxis, ElementType, Reduction, Sharding, Split, TensorType};
