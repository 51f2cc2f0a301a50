//! The context: uniqued types, attributes, identifiers and operation names, plus the registry of
//! dialects and op definitions. A `Context` is `Sync`: passes running in parallel on several
//! functions share one context and intern into it concurrently.
//!
//! Data that changes during compilation (operations, blocks, values) is not here but in an
//! [`Ir`](crate::ir::Ir); a context outlives every `Ir` built against it.
//!
//! Layer: core, below the op definitions. Op definitions' hooks take a `&Context`, so this file
//! must not name them: the context holds its [`Registry`](crate::registry::Registry) as an
//! opaque `dyn Any`, and the methods that read it (the constructors [`Context::new`] and
//! [`Context::empty`], [`Context::registry`], [`Context::op_def`], [`Context::dialect`],
//! [`Context::dialect_type`], [`Context::dialect_attr`]) are defined one layer up, in
//! `registry/lookup.rs`. Imports: `apint`, `uniquer`, `types`, `attrs` and `ir` (op names) only.
//!
//! Invariant: the opaque definitions are always a `Registry`; only `registry/lookup.rs` makes a
//! context, through `Context::with_definitions`.

use crate::apint::ApInt;
use crate::attrs::{Attr, AttrKind, DialectParam, Ident};
use crate::ir::OpName;
use crate::types::{FloatKind, Signedness, Type, TypeKind};
use crate::uniquer::Uniquer;
use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};

/// Information attached to a uniqued operation name.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct OpNameInfo {
    pub name: Box<str>,
}

/// Shared, thread-safe compilation context.
pub struct Context {
    types: Uniquer<TypeKind>,
    attrs: Uniquer<AttrKind>,
    idents: Uniquer<Box<str>>,
    op_names: Uniquer<Box<str>>,
    /// The registry of dialects and op definitions, opaque at this layer (see the module docs).
    definitions: Box<dyn Any + Send + Sync>,
    allow_unregistered: AtomicBool,
    /// `--mlir-print-value-users` also applies to the ops printed in "see current operation"
    /// notes (mlir-opt's notes take the command line's printing flags).
    value_users_in_notes: AtomicBool,
    debug_info_in_notes: AtomicBool,
    pretty_debug_info_in_notes: AtomicBool,
    common: Common,
    resources: std::sync::Mutex<Resources>,
}

/// The file metadata (`{-# ... #-}`) of the last parsed file, printed back after the module as
/// mlir-opt does: the `builtin` dialect's blobs (hex text `0x` + 4 alignment bytes + data, in
/// upper case), and `external_resources` groups kept verbatim, in file order.
#[derive(Default, Clone, Debug)]
pub struct Resources {
    /// `(key, hex)` of each builtin blob.
    pub blobs: Vec<(String, String)>,
    /// `(group, [(key, value text)])` of `external_resources`.
    pub external: Vec<(String, Vec<(String, String)>)>,
}

struct Common {
    index: Type,
    i1: Type,
    i64: Type,
    none: Type,
    unit: Attr,
    empty_dict: Attr,
    unknown_loc: Attr,
}

impl Context {
    /// A context over the given definitions (always a `Registry`: see [`Context::new`]).
    pub(crate) fn with_definitions(definitions: Box<dyn Any + Send + Sync>) -> Self {
        let types = Uniquer::new();
        let attrs = Uniquer::new();
        let index = Type(types.intern(TypeKind::Index));
        let i1 = Type(types.intern(TypeKind::Integer { width: 1, signedness: Signedness::Signless }));
        let i64 = Type(types.intern(TypeKind::Integer { width: 64, signedness: Signedness::Signless }));
        let none = Type(types.intern(TypeKind::None));
        let unit = Attr(attrs.intern(AttrKind::Unit));
        let empty_dict = Attr(attrs.intern(AttrKind::Dictionary(Vec::new())));
        let unknown_loc = Attr(attrs.intern(AttrKind::UnknownLoc));
        Context {
            types,
            attrs,
            idents: Uniquer::new(),
            op_names: Uniquer::new(),
            definitions,
            allow_unregistered: AtomicBool::new(false),
            value_users_in_notes: AtomicBool::new(false),
            debug_info_in_notes: AtomicBool::new(false),
            pretty_debug_info_in_notes: AtomicBool::new(false),
            common: Common { index, i1, i64, none, unit, empty_dict, unknown_loc },
            resources: Default::default(),
        }
    }

    /// The definitions this context was made with, for `registry/lookup.rs` to downcast.
    #[inline]
    pub(crate) fn definitions(&self) -> &(dyn Any + Send + Sync) {
        &*self.definitions
    }

    /// The resources of the last parsed file (see [`Resources`]).
    pub fn resources(&self) -> std::sync::MutexGuard<'_, Resources> {
        self.resources.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether ops and types of unknown dialects are accepted (`--allow-unregistered-dialect`).
    pub fn allows_unregistered(&self) -> bool {
        self.allow_unregistered.load(Ordering::Relaxed)
    }
    pub fn set_allow_unregistered(&self, allow: bool) {
        self.allow_unregistered.store(allow, Ordering::Relaxed)
    }

    /// Whether the ops of "see current operation" notes carry `--mlir-print-value-users`
    /// comments (see [`crate::printer::print_op_for_diagnostic`]).
    pub fn value_users_in_notes(&self) -> bool {
        self.value_users_in_notes.load(Ordering::Relaxed)
    }
    pub fn set_value_users_in_notes(&self, on: bool) {
        self.value_users_in_notes.store(on, Ordering::Relaxed)
    }

    /// Whether the ops of "see current operation" notes carry their locations
    /// (`--mlir-print-debuginfo`, and `--mlir-pretty-debuginfo` for the pretty form), as
    /// mlir-opt's notes follow its printing flags: `(debug info, pretty)`.
    pub fn debug_info_in_notes(&self) -> (bool, bool) {
        (self.debug_info_in_notes.load(Ordering::Relaxed), self.pretty_debug_info_in_notes.load(Ordering::Relaxed))
    }
    pub fn set_debug_info_in_notes(&self, debug_info: bool, pretty: bool) {
        self.debug_info_in_notes.store(debug_info, Ordering::Relaxed);
        self.pretty_debug_info_in_notes.store(pretty, Ordering::Relaxed)
    }

    // ----- op names -------------------------------------------------------------------------

    pub fn op_name(&self, name: &str) -> OpName {
        OpName(self.op_names.intern_ref(name))
    }
    pub fn op_name_str(&self, name: OpName) -> &str {
        self.op_names.get(name.0)
    }
    /// The dialect namespace of an op name (`arith` for `arith.addi`).
    pub fn op_dialect(&self, name: OpName) -> &str {
        let s = self.op_name_str(name);
        s.split_once('.').map(|(d, _)| d).unwrap_or(s)
    }

    // ----- identifiers ----------------------------------------------------------------------

    pub fn ident(&self, s: &str) -> Ident {
        Ident(self.idents.intern_ref(s))
    }
    pub fn ident_str(&self, id: Ident) -> &str {
        self.idents.get(id.0)
    }

    // ----- types ----------------------------------------------------------------------------

    pub fn intern_type(&self, kind: TypeKind) -> Type {
        Type(self.types.intern(kind))
    }
    #[inline]
    pub fn type_kind(&self, t: Type) -> &TypeKind {
        self.types.get(t.0)
    }
    pub fn index_type(&self) -> Type {
        self.common.index
    }
    pub fn i1_type(&self) -> Type {
        self.common.i1
    }
    pub fn i64_type(&self) -> Type {
        self.common.i64
    }
    pub fn none_type(&self) -> Type {
        self.common.none
    }
    pub fn integer_type(&self, width: u32) -> Type {
        self.intern_type(TypeKind::Integer { width, signedness: Signedness::Signless })
    }
    pub fn float_type(&self, k: FloatKind) -> Type {
        self.intern_type(TypeKind::Float(k))
    }
    pub fn function_type(&self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.intern_type(TypeKind::Function { inputs, results })
    }
    pub fn tensor_type(&self, shape: Vec<i64>, elem: Type, encoding: Option<Attr>) -> Type {
        self.intern_type(TypeKind::RankedTensor { shape, elem, encoding })
    }

    /// The parameters of `t` when it is the registered dialect type `dialect.mnemonic`.
    pub fn dialect_type_params(&self, t: Type, dialect: &str, mnemonic: &str) -> Option<&[DialectParam]> {
        match self.type_kind(t) {
            TypeKind::Dialect(d) if &*d.dialect == dialect && &*d.mnemonic == mnemonic => Some(&d.params),
            _ => None,
        }
    }

    // ----- attributes -----------------------------------------------------------------------

    /// The parameters of `a` when it is the registered dialect attribute `dialect.mnemonic`.
    pub fn dialect_attr_params(&self, a: Attr, dialect: &str, mnemonic: &str) -> Option<&[DialectParam]> {
        match self.attr_kind(a) {
            AttrKind::Dialect(d) if &*d.dialect == dialect && &*d.mnemonic == mnemonic => Some(&d.params),
            _ => None,
        }
    }

    pub fn intern_attr(&self, kind: AttrKind) -> Attr {
        Attr(self.attrs.intern(kind))
    }
    #[inline]
    pub fn attr_kind(&self, a: Attr) -> &AttrKind {
        self.attrs.get(a.0)
    }
    pub fn unit_attr(&self) -> Attr {
        self.common.unit
    }
    pub fn empty_dict(&self) -> Attr {
        self.common.empty_dict
    }
    pub fn unknown_loc(&self) -> Attr {
        self.common.unknown_loc
    }
    pub fn bool_attr(&self, b: bool) -> Attr {
        self.intern_attr(AttrKind::Bool(b))
    }
    pub fn string_attr(&self, s: &str) -> Attr {
        self.intern_attr(AttrKind::String { value: s.as_bytes().into(), ty: None })
    }
    pub fn type_attr(&self, t: Type) -> Attr {
        self.intern_attr(AttrKind::Type(t))
    }
    pub fn array_attr(&self, elems: Vec<Attr>) -> Attr {
        self.intern_attr(AttrKind::Array(elems))
    }
    /// An integer attribute of an integer or index type, from a signed value.
    pub fn int_attr(&self, ty: Type, value: i64) -> Attr {
        let width = self.type_kind(ty).int_or_float_width().unwrap_or(64);
        self.intern_attr(AttrKind::Integer { value: ApInt::from_i128(width, value as i128), ty })
    }
    pub fn symbol_ref(&self, root: &str) -> Attr {
        let root = self.ident(root);
        self.intern_attr(AttrKind::SymbolRef { root, nested: Vec::new() })
    }
    pub fn file_loc(&self, file: &str, line: u32, col: u32) -> Attr {
        let file = self.ident(file);
        self.intern_attr(AttrKind::FileLineColLoc { file, line, col })
    }

    /// A dictionary attribute from entries in any order; a later duplicate key wins.
    pub fn dictionary(&self, mut entries: Vec<(Ident, Attr)>) -> Attr {
        if entries.is_empty() {
            return self.common.empty_dict;
        }
        entries.sort_by(|a, b| self.ident_str(a.0).cmp(self.ident_str(b.0)));
        // Keep the last of equal keys.
        let mut out: Vec<(Ident, Attr)> = Vec::with_capacity(entries.len());
        for e in entries {
            match out.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => out.push(e),
            }
        }
        self.intern_attr(AttrKind::Dictionary(out))
    }

    /// The entries of a dictionary attribute (empty for any other attribute).
    pub fn dict_entries(&self, dict: Attr) -> &[(Ident, Attr)] {
        match self.attr_kind(dict) {
            AttrKind::Dictionary(e) => e,
            _ => &[],
        }
    }

    /// Looks a key up in a dictionary attribute.
    pub fn dict_get(&self, dict: Attr, key: &str) -> Option<Attr> {
        let entries = self.dict_entries(dict);
        entries.binary_search_by(|(k, _)| self.ident_str(*k).cmp(key)).ok().map(|i| entries[i].1)
    }

    /// A copy of `dict` with `key` set to `value` (`None` removes it).
    pub fn dict_set(&self, dict: Attr, key: &str, value: Option<Attr>) -> Attr {
        let k = self.ident(key);
        let mut entries: Vec<(Ident, Attr)> =
            self.dict_entries(dict).iter().copied().filter(|(e, _)| *e != k).collect();
        if let Some(v) = value {
            entries.push((k, v));
        }
        self.dictionary(entries)
    }

    /// The string of a string attribute, if it is valid UTF-8.
    pub fn attr_str(&self, a: Attr) -> Option<&str> {
        match self.attr_kind(a) {
            AttrKind::String { value, .. } => std::str::from_utf8(value).ok(),
            _ => None,
        }
    }

    /// The value of an integer attribute as i64 (sign-extended), if it fits.
    pub fn attr_i64(&self, a: Attr) -> Option<i64> {
        match self.attr_kind(a) {
            AttrKind::Integer { value, .. } => value.to_i64(),
            _ => None,
        }
    }

    /// The type of a typed attribute (integer, float, typed string, dense).
    pub fn attr_type(&self, a: Attr) -> Option<Type> {
        match self.attr_kind(a) {
            AttrKind::Integer { ty, .. }
            | AttrKind::Float { ty, .. }
            | AttrKind::DenseElements { ty, .. }
            | AttrKind::TypedOpaque { ty, .. } => Some(*ty),
            AttrKind::String { ty, .. } => *ty,
            AttrKind::Bool(_) => Some(self.common.i1),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniquing_and_dictionaries() {
        let ctx = Context::empty();
        let a = ctx.integer_type(32);
        assert_eq!(a, ctx.integer_type(32));
        assert_ne!(a, ctx.integer_type(16));
        let k1 = ctx.ident("zeta");
        let k2 = ctx.ident("alpha");
        let d = ctx.dictionary(vec![(k1, ctx.unit_attr()), (k2, ctx.int_attr(a, 3))]);
        let keys: Vec<&str> = ctx.dict_entries(d).iter().map(|(k, _)| ctx.ident_str(*k)).collect();
        assert_eq!(keys, ["alpha", "zeta"]);
        assert_eq!(ctx.dict_get(d, "alpha").and_then(|v| ctx.attr_i64(v)), Some(3));
        let d2 = ctx.dict_set(d, "zeta", None);
        assert_eq!(ctx.dict_entries(d2).len(), 1);
        assert_eq!(d, ctx.dictionary(vec![(k2, ctx.int_attr(a, 3)), (k1, ctx.unit_attr())]));
    }
}
