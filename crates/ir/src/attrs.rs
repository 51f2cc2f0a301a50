//! Attributes of the builtin dialect, as data, including locations (which MLIR also models as
//! attributes). Attributes are uniqued in the [`Context`](crate::context::Context); an
//! [`Attr`] is a `Copy` number.
//!
//! Invariants: a [`AttrKind::Dictionary`] is sorted by key name (byte order, as MLIR) with
//! unique keys — build them with [`Context::dictionary`](crate::context::Context::dictionary);
//! floats are stored as raw bits so that uniquing distinguishes `-0.0` from `0.0` and keeps
//! NaN payloads; affine maps, integer sets and dialect attributes we do not model are kept as
//! verbatim text, which round-trips exactly. Attributes of registered dialects that declare
//! them are [`AttrKind::Dialect`]: structured parameters ([`DialectData`]).
//!
//! Layer: builtin data, above the handles (`handles.rs`) and the dialect parameters
//! (`dialect_data.rs`), which it re-exports; it and `types.rs` import each other's handles
//! only through `handles.rs`, so neither imports the other.

use crate::apint::ApInt;
pub use crate::dialect_data::{DialectData, DialectParam};
use crate::handles::Type;
pub use crate::handles::{Attr, Ident};

/// The payload of a dense elements attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseData {
    /// One scalar attribute (integer, float, bool or complex array) repeated over the shape.
    Splat(Attr),
    /// Scalar attributes in row-major order, one per element.
    Elements(Vec<Attr>),
    /// `dense<"0x...">`: raw little-endian bytes kept as the hex text (without quotes).
    Hex(Box<str>),
}

/// Values of a dense array attribute (`array<i64: 1, 2>`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseArrayData {
    /// Integers (also `i1` as 0/1), sign-interpreted per the element type when printed.
    Int(Vec<i64>),
    /// Float bits (f32 stored as its f32 bits widened to u64; f64 as its bits).
    Float(Vec<u64>),
    /// Integers of element types wider than 64 bits (`array<ui128: ...>`), at the type's width.
    WideInt(Vec<ApInt>),
    /// Raw bits of floats wider than 64 bits (`f80`, `f128`).
    WideFloat(Vec<u128>),
}

/// The structure of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    /// `unit`: present-or-absent flags.
    Unit,
    /// `true` / `false`.
    Bool(bool),
    /// `42 : i32`; the value has the type's width (64 for `index`).
    Integer { value: ApInt, ty: Type },
    /// `1.0 : f32`; `bits` holds the raw IEEE (or other format) bits in the low bits.
    Float { bits: u128, ty: Type },
    /// `"text"`; bytes may be any value (escapes like `\FF`); an optional type (`"s" : i32`).
    String { value: Box<[u8]>, ty: Option<Type> },
    /// `[a, b]`.
    Array(Vec<Attr>),
    /// `{a = 1, b}`: sorted by key.
    Dictionary(Vec<(Ident, Attr)>),
    /// `dense<...> : tensor<2xi32>`.
    DenseElements { ty: Type, data: DenseData },
    /// `array<i64: 1, 2>`.
    DenseArray { elem: Type, data: DenseArrayData },
    /// `@root::@nested::@leaf`.
    SymbolRef { root: Ident, nested: Vec<Ident> },
    /// A type used as an attribute.
    Type(Type),
    /// `affine_map<...>`: the text between the angle brackets as printed, and the structure key
    /// that tells apart maps printed alike (`d0 + (d1 + 5)` vs `(d0 + d1) + 5`, both printed
    /// `d0 + d1 + 5`); `None` when the text is unambiguous.
    AffineMap(Box<str>, Option<Box<str>>),
    /// `affine_set<...>`: the text between the angle brackets as printed, and the structure key
    /// as for [`AttrKind::AffineMap`].
    IntegerSet(Box<str>, Option<Box<str>>),
    /// `strided<[s0, s1], offset: o>`; `DYNAMIC` for `?`; `offset` is None when not printed.
    Strided { strides: Vec<i64>, offset: i64 },
    /// An attribute of a dialect the context does not model: `#dialect.body` verbatim, or
    /// `#dialect<"...">` (`pretty == false`).
    Opaque { dialect: Box<str>, body: Box<str>, pretty: bool },
    /// An [`AttrKind::Opaque`] attribute with a type other than `none`, written after it:
    /// `#x<"data"> : f16` (the type is not part of the body).
    TypedOpaque { dialect: Box<str>, body: Box<str>, pretty: bool, ty: Type },
    /// An attribute of a registered dialect that declares it (`#test_d.level<3>`): parsed,
    /// verified and printed by the dialect's [`AttrDef`](crate::registry::AttrDef) hooks.
    Dialect(Box<DialectData>),
    /// `dense_resource<name> : tensor<...>`: elements held in the blob `name` of the file's
    /// `dialect_resources` section (see [`Resources`](crate::context::Resources)).
    DenseResource { name: Box<str>, ty: Type },
    /// `sparse<indices, values> : type`: `indices` is a dense `i64` elements attribute of shape
    /// `N x rank` (or `N` for rank 1), `values` a dense elements attribute of `N` values; the
    /// other elements are zero.
    Sparse { ty: Type, indices: Attr, values: Attr },
    /// `distinct[id]<inner>`: an attribute that is unique by its identity, not its value. `id`
    /// is the number the file gave it (one parse gives one attribute per id); the printer
    /// renumbers them in first-print order, as MLIR does.
    Distinct { id: u64, inner: Attr },
    /// `loc(unknown)`.
    UnknownLoc,
    /// `loc("file":line:col)`.
    FileLineColLoc { file: Ident, line: u32, col: u32 },
    /// `loc("name"(child))` or `loc("name")`.
    NameLoc { name: Ident, child: Option<Attr> },
    /// `loc(callsite(callee at caller))`.
    CallSiteLoc { callee: Attr, caller: Attr },
    /// `loc(fused<metadata>[a, b])`.
    FusedLoc { locs: Vec<Attr>, metadata: Option<Attr> },
}

impl AttrKind {
    /// True for the location variants.
    pub fn is_location(&self) -> bool {
        matches!(
            self,
            AttrKind::UnknownLoc
                | AttrKind::FileLineColLoc { .. }
                | AttrKind::NameLoc { .. }
                | AttrKind::CallSiteLoc { .. }
                | AttrKind::FusedLoc { .. }
        )
    }
}
