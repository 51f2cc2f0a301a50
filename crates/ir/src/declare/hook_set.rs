//! [`HookSet`]: hooks shared by a family of ops, as MLIR's ODS base classes share them.
//!
//! Layer: definitions (it names the hook types of `registry.rs` and fills an
//! [`OpDef`](crate::registry::OpDef)).

use crate::registry::{
    DefaultPropsFn, FoldFn, InferResultTypesFn, OpDef, ParseFn, PatternDef, PrintFn, ResultNamesFn, VerifyFn,
};

/// The hooks a family of ops has in common: the nine collectives of `comm` share one verifier,
/// one custom syntax, one canonicalization pattern and one default property; arith's integer
/// binary ops share a verifier and a syntax. An op names its family's set in the `hook_set:`
/// section of [`declare_op!`](crate::declare_op) and adds or overrides single hooks in
/// `hooks:` (which is applied after the set, so it wins). A set is a plain constant, so one set
/// can extend another with struct update syntax:
///
/// ```
/// use fuser_ir::declare::HookSet;
/// use fuser_ir::registry::VerifyCtx;
/// use fuser_ir::{Diagnostic, OpId};
///
/// fn verify_pair(_v: &VerifyCtx<'_>, _op: OpId) -> Result<(), Diagnostic> {
///     Ok(())
/// }
/// const PAIR_HOOKS: HookSet = HookSet { verify: Some(verify_pair), ..HookSet::NONE };
///
/// fuser_ir::declare_op! {
///     pub static SWAP: "demo.swap" {
///         summary: "swaps a pair",
///         hook_set: PAIR_HOOKS,
///     }
/// }
/// fuser_ir::declare_op! {
///     pub static ZIP: "demo.zip" {
///         summary: "zips a pair",
///         hook_set: PAIR_HOOKS,
///         hooks: { default_dialect: "demo" },
///     }
/// }
/// assert!(SWAP.verify.is_some() && ZIP.verify.is_some());
/// assert_eq!(ZIP.default_dialect, Some("demo"));
/// ```
#[derive(Clone, Copy)]
pub struct HookSet {
    pub verify: Option<VerifyFn>,
    pub fold: Option<FoldFn>,
    /// Patterns of the set; an op's own `canonicalize:` hook replaces them.
    pub canonicalize: &'static [PatternDef],
    pub parse: Option<ParseFn>,
    pub print: Option<PrintFn>,
    pub result_names: Option<ResultNamesFn>,
    pub default_dialect: Option<&'static str>,
    pub default_props: Option<DefaultPropsFn>,
    pub infer_result_types: Option<InferResultTypesFn>,
}

impl HookSet {
    /// The empty set (the base of struct updates).
    pub const NONE: HookSet = HookSet {
        verify: None,
        fold: None,
        canonicalize: &[],
        parse: None,
        print: None,
        result_names: None,
        default_dialect: None,
        default_props: None,
        infer_result_types: None,
    };

    /// `def` with every hook this set has filled in (hooks the set lacks are left as they are).
    pub const fn apply(&self, mut def: OpDef) -> OpDef {
        if self.verify.is_some() {
            def.verify = self.verify;
        }
        if self.fold.is_some() {
            def.fold = self.fold;
        }
        if !self.canonicalize.is_empty() {
            def.canonicalize = self.canonicalize;
        }
        if self.parse.is_some() {
            def.parse = self.parse;
        }
        if self.print.is_some() {
            def.print = self.print;
        }
        if self.result_names.is_some() {
            def.result_names = self.result_names;
        }
        if self.default_dialect.is_some() {
            def.default_dialect = self.default_dialect;
        }
        if self.default_props.is_some() {
            def.default_props = self.default_props;
        }
        if self.infer_result_types.is_some() {
            def.infer_result_types = self.infer_result_types;
        }
        def
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{Traits, VerifyCtx};
    use crate::{Diagnostic, OpId};

    fn ok(_: &VerifyCtx<'_>, _: OpId) -> Result<(), Diagnostic> {
        Ok(())
    }
    fn default_none(_: &crate::Context) -> Vec<(&'static str, crate::Attr)> {
        Vec::new()
    }

    #[test]
    fn a_set_fills_only_its_hooks() {
        const SET: HookSet = HookSet { verify: Some(ok), default_props: Some(default_none), ..HookSet::NONE };
        const DEF: OpDef = SET.apply(OpDef { default_dialect: Some("x"), ..OpDef::new("t.op", Traits::NONE) });
        assert!(DEF.verify.is_some() && DEF.default_props.is_some());
        assert!(DEF.fold.is_none() && DEF.parse.is_none() && DEF.canonicalize.is_empty());
        assert_eq!(DEF.default_dialect, Some("x"), "a hook the set lacks is kept");
        const EMPTY: OpDef = HookSet::NONE.apply(OpDef::new("t.op", Traits::NONE));
        assert!(EMPTY.verify.is_none() && EMPTY.default_props.is_none());
    }
}
