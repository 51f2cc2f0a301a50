//! (being written)
pub mod float;
