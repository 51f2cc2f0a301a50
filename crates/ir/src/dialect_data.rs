//! The structured parameters of registered dialect types and attributes: [`DialectParam`] and
//! [`DialectData`] (`!dialect.mnemonic<params>` / `#dialect.mnemonic<params>`), the payload of
//! `TypeKind::Dialect` and `AttrKind::Dialect`.
//!
//! Layer: builtin data, above the handles and below `types.rs` and `attrs.rs`, which both hold
//! it. Re-exported as `attrs::{DialectData, DialectParam}`.

use crate::handles::{Attr, Type};

/// One parameter of a registered dialect type or attribute, as its parse hook produced it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DialectParam {
    Type(Type),
    Attr(Attr),
    /// A plain integer (an extent, a level): `?` extents are [`DYNAMIC`](crate::types::DYNAMIC).
    Int(i64),
    /// A bare keyword (`device`, `DIDx`).
    Keyword(Box<str>),
    /// A list of parameters (`[DIDx, DIDy]`, a shape).
    List(Vec<DialectParam>),
}

impl DialectParam {
    pub fn as_type(&self) -> Option<Type> {
        if let DialectParam::Type(t) = self { Some(*t) } else { None }
    }
    pub fn as_attr(&self) -> Option<Attr> {
        if let DialectParam::Attr(a) = self { Some(*a) } else { None }
    }
    pub fn as_int(&self) -> Option<i64> {
        if let DialectParam::Int(i) = self { Some(*i) } else { None }
    }
    pub fn as_keyword(&self) -> Option<&str> {
        if let DialectParam::Keyword(k) = self { Some(k) } else { None }
    }
    pub fn as_list(&self) -> Option<&[DialectParam]> {
        if let DialectParam::List(l) = self { Some(l) } else { None }
    }
}

/// The uniqued data of a registered dialect type ([`TypeKind::Dialect`](crate::types::TypeKind))
/// or attribute ([`AttrKind::Dialect`]): `!dialect.mnemonic<params>`. Only built after the
/// definition's verify hook accepted `params`, so passes may read them without re-checking.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DialectData {
    pub dialect: Box<str>,
    pub mnemonic: Box<str>,
    pub params: Vec<DialectParam>,
}
