//! The [`Context`] methods that read the registry of dialects and op definitions: the
//! constructors, [`Context::registry`], [`Context::op_def`], [`Context::dialect`], and the
//! dialect types and attributes that run a definition's verify hook.
//!
//! Layer: definitions (with `registry.rs`). They are inherent methods of `Context`, but live
//! here rather than in `context.rs` because they name `Registry`, `OpDef` and `DialectDef`, whose
//! hooks take a `&Context`: the context layer holds the registry opaquely and imports nothing
//! of this layer.
//!
//! Invariant: every `Context` is made by [`Context::new`] (or [`Context::empty`]), so its opaque
//! definitions are a `Registry` and the downcast in [`Context::registry`] cannot fail.

use super::{DialectDef, OpDef, Registry};
use crate::attrs::{Attr, AttrKind, DialectData, DialectParam};
use crate::context::Context;
use crate::ir::OpName;
use crate::types::{Type, TypeKind};

impl Context {
    /// A context with the given dialects registered.
    pub fn new(registry: Registry) -> Self {
        Context::with_definitions(Box::new(registry))
    }

    /// A context with no dialect registered.
    pub fn empty() -> Self {
        Self::new(Registry::new())
    }

    #[inline]
    pub fn registry(&self) -> &Registry {
        self.definitions().downcast_ref::<Registry>().expect("a Context is always made from a Registry")
    }

    /// The definition of a registered op.
    pub fn op_def(&self, name: OpName) -> Option<&'static OpDef> {
        self.registry().op(self.op_name_str(name))
    }

    pub fn dialect(&self, namespace: &str) -> Option<&'static DialectDef> {
        self.registry().dialect(namespace)
    }

    /// `!dialect.mnemonic<params>` of a registered dialect that declares it, after its verify
    /// hook accepted `params`; the error message otherwise.
    pub fn dialect_type(&self, dialect: &str, mnemonic: &str, params: Vec<DialectParam>) -> Result<Type, String> {
        let data = self.checked_dialect_data(dialect, mnemonic, params, true)?;
        Ok(self.intern_type(TypeKind::Dialect(Box::new(data))))
    }
    /// `#dialect.mnemonic<params>` of a registered dialect that declares it, after its verify
    /// hook accepted `params`; the error message otherwise.
    pub fn dialect_attr(&self, dialect: &str, mnemonic: &str, params: Vec<DialectParam>) -> Result<Attr, String> {
        let data = self.checked_dialect_data(dialect, mnemonic, params, false)?;
        Ok(self.intern_attr(AttrKind::Dialect(Box::new(data))))
    }
    /// Looks up the definition of `dialect.mnemonic` and runs its verify hook on `params`.
    fn checked_dialect_data(
        &self,
        dialect: &str,
        mnemonic: &str,
        params: Vec<DialectParam>,
        is_type: bool,
    ) -> Result<DialectData, String> {
        let d = self.dialect(dialect).ok_or_else(|| format!("dialect '{dialect}' is not registered"))?;
        let def = if is_type { d.type_def(mnemonic) } else { d.attr_def(mnemonic) };
        let def = def.ok_or_else(|| {
            format!("dialect '{dialect}' declares no {} '{mnemonic}'", if is_type { "type" } else { "attribute" })
        })?;
        if let Some(verify) = def.verify {
            verify(self, &params)?;
        }
        Ok(DialectData { dialect: dialect.into(), mnemonic: mnemonic.into(), params })
    }
}
