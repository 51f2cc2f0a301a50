//! The [`declare_op!`](crate::declare_op) macro (exported at the crate root) and its helper.
//!
//! Layer: definitions. The expansion names `registry::{OpDef, ArgDef, Traits}` and the
//! declared structure of `declare.rs`, so the macro lives above both; `declare.rs` itself
//! imports nothing from `registry.rs` but [`ArgKind`](crate::registry::ArgKind).

/// Declares an op: expands to a `static` [`OpDef`](crate::registry::OpDef) whose
/// [`decl`](crate::registry::OpDef::decl) records the declared structure, which the verifier
/// checks before the op's own `verify` hook (see the [module docs](crate::declare)).
///
/// Sections come in this order; all but `summary` are optional:
///
/// - `summary: "..."`, `description: "..."` (markdown): docs.
/// - `traits: [PURE | COMMUTATIVE]`: [`Traits`](crate::registry::Traits) constant names.
/// - `operands: { name: CONSTRAINT, ... }`, `results: { ... }`: [`TypeConstraint`]s; append
///   `.optional()` or `.variadic()` for groups of 0–1 or any number of values. With more than
///   one such group, sizes come from `operandSegmentSizes` / `resultSegmentSizes`.
/// - `properties: { name: CONSTRAINT, ... }`, `attributes: { ... }`: [`AttrConstraint`]s
///   (`.optional()` when it may be absent). Properties are listed in
///   [`OpDef::properties`](crate::registry::OpDef::properties).
/// - `regions: { name: ANY_REGION, ... }`, `successors: { ... }`: [`SlotConstraint`]s.
/// - `hook_set: SET`: a [`HookSet`](crate::declare::HookSet) constant, the hooks the op shares
///   with its family (MLIR's ODS base classes); applied before `hooks:`.
/// - `hooks: { verify: f, fold: f, canonicalize: &[...], parse: f, print: f, result_names: f,
///   default_dialect: "...", default_props: f, infer_result_types: f }`: any [`OpDef`](crate::registry::OpDef) hook
///   (`Option` fields get `Some(..)` around the value); each overrides the set's.
///
/// ```
/// use fuser_ir::declare::{ANY_TYPE, AttrConstraint, TypeConstraint};
/// use fuser_ir::registry::{OpDef, Traits, VerifyCtx};
/// use fuser_ir::{Context, Diagnostic, OpId, Type};
///
/// fn is_index(ctx: &Context, t: Type) -> bool {
///     ctx.type_kind(t).is_index()
/// }
/// const INDEX: TypeConstraint = TypeConstraint::new("index", is_index);
/// const STRING: AttrConstraint = AttrConstraint::new("string attribute", |ctx, a| ctx.attr_str(a).is_some());
///
/// fn verify_gather(_v: &VerifyCtx<'_>, _op: OpId) -> Result<(), Diagnostic> {
///     Ok(()) // counts, segments, `label` and operand types are already checked here
/// }
///
/// fuser_ir::declare_op! {
///     /// `demo.gather`: a test op.
///     pub static GATHER: "demo.gather" {
///         summary: "gathers values",
///         description: "Reads `source` at each of `indices`, masked by `mask` if present.",
///         traits: [PURE],
///         operands: { source: ANY_TYPE, indices: INDEX.variadic(), mask: ANY_TYPE.optional() },
///         results: { result: ANY_TYPE },
///         properties: { label: STRING.optional() },
///         hooks: { verify: verify_gather },
///     }
/// }
///
/// assert_eq!(GATHER.name, "demo.gather");
/// assert!(GATHER.has(Traits::PURE));
/// assert_eq!(GATHER.operands.len(), 3);
/// assert_eq!(GATHER.properties, &["label"]);
/// assert!(GATHER.declared().unwrap().uses_segments(fuser_ir::declare::ValueList::Operands));
/// ```
///
/// [`TypeConstraint`]: crate::declare::TypeConstraint
/// [`AttrConstraint`]: crate::declare::AttrConstraint
/// [`SlotConstraint`]: crate::declare::SlotConstraint
#[macro_export]
macro_rules! declare_op {
    (
        $(#[$meta:meta])*
        $vis:vis static $static_name:ident : $op_name:literal {
            summary: $summary:expr
            $(, description: $description:expr)?
            $(, traits: [$($trait_name:ident)|*])?
            $(, operands: { $($operand:ident : $operand_c:expr),* $(,)? })?
            $(, results: { $($result:ident : $result_c:expr),* $(,)? })?
            $(, properties: { $($prop:ident : $prop_c:expr),* $(,)? })?
            $(, attributes: { $($attr:ident : $attr_c:expr),* $(,)? })?
            $(, regions: { $($region:ident : $region_c:expr),* $(,)? })?
            $(, successors: { $($succ:ident : $succ_c:expr),* $(,)? })?
            $(, hook_set: $hook_set:expr)?
            $(, hooks: { $($hook:ident : $hook_value:expr),* $(,)? })?
            $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis static $static_name: $crate::registry::OpDef = {
            use $crate::declare::OpDecl;
            use $crate::registry::{ArgDef, OpDef, Traits};
            static DECL: OpDecl = OpDecl {
                operands: &[$($($crate::declare::Decl { name: stringify!($operand), constraint: $operand_c }),*)?],
                results: &[$($($crate::declare::Decl { name: stringify!($result), constraint: $result_c }),*)?],
                attributes: &[
                    $($($crate::declare::Decl { name: stringify!($prop), constraint: $prop_c },)*)?
                    $($($crate::declare::Decl { name: stringify!($attr), constraint: $attr_c },)*)?
                ],
                regions: &[$($($crate::declare::Decl { name: stringify!($region), constraint: $region_c }),*)?],
                successors: &[$($($crate::declare::Decl { name: stringify!($succ), constraint: $succ_c }),*)?],
            };
            const OPERANDS: &[ArgDef] = &[$($(ArgDef {
                name: stringify!($operand),
                constraint: $operand_c.description,
                kind: $operand_c.kind,
            }),*)?];
            const RESULTS: &[ArgDef] = &[$($(ArgDef {
                name: stringify!($result),
                constraint: $result_c.description,
                kind: $result_c.kind,
            }),*)?];
            const ATTRIBUTES: &[ArgDef] = &[
                $($(ArgDef { name: stringify!($prop), constraint: $prop_c.description, kind: $prop_c.kind },)*)?
                $($(ArgDef { name: stringify!($attr), constraint: $attr_c.description, kind: $attr_c.kind },)*)?
            ];
            const REGIONS: &[ArgDef] = &[$($(ArgDef {
                name: stringify!($region),
                constraint: $region_c.description,
                kind: $region_c.kind,
            }),*)?];
            #[allow(unused_mut)]
            let mut def = OpDef {
                summary: $summary,
                operands: OPERANDS,
                results: RESULTS,
                attributes: ATTRIBUTES,
                regions: REGIONS,
                properties: &[$($(stringify!($prop)),*)?],
                decl: Some(&DECL),
                ..OpDef::new($op_name, Traits::NONE $($(.union(Traits::$trait_name))*)?)
            };
            $(def.description = $description;)?
            $(def = $crate::declare::HookSet::apply(&$hook_set, def);)?
            $($($crate::__declare_op_hook!(def, $hook, $hook_value);)*)?
            def
        };
    };
}

/// Sets one hook field of the `OpDef` being declared (implementation detail of
/// [`declare_op!`](crate::declare_op)).
#[doc(hidden)]
#[macro_export]
macro_rules! __declare_op_hook {
    ($def:ident, canonicalize, $value:expr) => {
        $def.canonicalize = $value;
    };
    ($def:ident, $field:ident, $value:expr) => {
        $def.$field = Some($value);
    };
}
