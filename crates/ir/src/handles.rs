//! The uniqued handles: [`Type`], [`Attr`] and [`Ident`] are dense `u32` numbers into the
//! context's tables, `Copy` and compared as numbers. What they stand for is read through the
//! [`Context`](crate::context::Context) (`type_kind`, `attr_kind`, `ident_str`).
//!
//! Layer: the lowest of the builtin data (imports nothing), so that types can hold attributes
//! (tensor encodings) and attributes can hold types (typed attributes) without `types.rs` and
//! `attrs.rs` importing each other. Re-exported as `types::Type` and `attrs::{Attr, Ident}`.

/// A uniqued type: a dense number into the context's type table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Type(pub(crate) u32);

impl Type {
    /// The raw uniquer number (dense, for side tables and hashing).
    pub fn as_u32(self) -> u32 {
        self.0
    }
}

/// A uniqued attribute: a dense number into the context's attribute table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Attr(pub(crate) u32);

impl Attr {
    pub fn as_u32(self) -> u32 {
        self.0
    }
}

/// A uniqued identifier (attribute names, symbol names, file names).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Ident(pub(crate) u32);
