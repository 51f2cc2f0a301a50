//! Declaring an op in one place: the [`declare_op!`](crate::declare_op) macro and the
//! declarative structure ([`OpDecl`]) it records next to the [`OpDef`].
//!
//! One invocation gives the `static` [`OpDef`] (name, docs, traits, the operand/result/
//! attribute/region tables used by docs and `--help`, the properties list and the hooks) *and*
//! an [`OpDecl`] that the verifier checks generically before the op's own `verify` hook (see
//! [`verifier::declared`](crate::verifier::declared)): region, result, successor and operand
//! counts, `operandSegmentSizes`/`resultSegmentSizes` when several groups are variadic or
//! optional, required inherent attributes and their constraints, and operand/result type
//! constraints, all with `mlir-opt`'s wording and in its order. The op's hook then only checks
//! what is specific to it (types that must agree, value ranges), and may index operands freely.
//!
//! Constraints are `const` values: a [`TypeConstraint`] (a description, as MLIR words it in
//! "must be ..., but got ..." errors, and an optional predicate), an [`AttrConstraint`]
//! ("failed to satisfy constraint: ...") and a [`SlotConstraint`] for regions and successors.
//! Each carries its [`ArgKind`]: single by default, `.optional()` or `.variadic()` otherwise.
//!
//! Segment rule (MLIR's `AttrSizedOperandSegments`): with at most one variadic or optional
//! group, group sizes follow from the count; with more, the sizes are read from the
//! `operandSegmentSizes` (resp. `resultSegmentSizes`) dense `i32` array, a property (or a
//! discardable attribute) with one entry per declared group. A missing array counts as all
//! zeros, as MLIR's default-initialized property does.
//!
//! Invariants: declarations are `'static` data; nothing here panics on malformed IR (accessors
//! return `None` for ops whose structure does not match their declaration).
//!
//! Layer: interfaces, just above the context (constraints are predicates on `&Context`) and
//! below the definitions: `registry.rs` stores an `&'static OpDecl` in each `OpDef`, so this file
//! names nothing of it but [`ArgKind`]. The parts that join the two are one layer up:
//! `declare/accessors.rs` (typed accessors on `OpDef`), `declare/macros.rs` (the macro), and
//! `OpDef::verify_structure_and_hook` in `verifier/declared.rs`.
//!
//! [`OpDef`]: crate::registry::OpDef

use crate::attrs::{Attr, AttrKind, DenseArrayData};
use crate::context::Context;
use crate::ir::{Ir, OpId};
use crate::registry::ArgKind;
use crate::types::{Type, TypeKind};
use std::ops::Range;

/// A constraint on the type of an operand or result group.
#[derive(Clone, Copy, Debug)]
pub struct TypeConstraint {
    /// MLIR's summary of the constraint (`signless-integer-like`), used in docs and errors.
    pub description: &'static str,
    /// The predicate; `None` accepts every type (the description is documentation only).
    pub check: Option<fn(&Context, Type) -> bool>,
    pub kind: ArgKind,
}

impl TypeConstraint {
    /// A single value whose type satisfies `check`.
    pub const fn new(description: &'static str, check: fn(&Context, Type) -> bool) -> TypeConstraint {
        TypeConstraint { description, check: Some(check), kind: ArgKind::Single }
    }
    /// A single value of any type, described by `description`.
    pub const fn any(description: &'static str) -> TypeConstraint {
        TypeConstraint { description, check: None, kind: ArgKind::Single }
    }
    /// The same constraint on a group of zero or one value.
    pub const fn optional(self) -> TypeConstraint {
        TypeConstraint { kind: ArgKind::Optional, ..self }
    }
    /// The same constraint on a group of any number of values.
    pub const fn variadic(self) -> TypeConstraint {
        TypeConstraint { kind: ArgKind::Variadic, ..self }
    }
    fn accepts(&self, ctx: &Context, t: Type) -> bool {
        self.check.is_none_or(|f| f(ctx, t))
    }
}

/// Any type.
pub const ANY_TYPE: TypeConstraint = TypeConstraint::any("any type");

/// A constraint on an inherent attribute (or property). `Single` means required, `Optional`
/// means it may be absent; `Variadic` is not meaningful and treated as `Optional`.
#[derive(Clone, Copy, Debug)]
pub struct AttrConstraint {
    /// MLIR's summary, used in docs and in "failed to satisfy constraint: ..." errors.
    pub description: &'static str,
    /// The predicate; `None` accepts every attribute.
    pub check: Option<fn(&Context, Attr) -> bool>,
    pub kind: ArgKind,
}

impl AttrConstraint {
    /// A required attribute satisfying `check`.
    pub const fn new(description: &'static str, check: fn(&Context, Attr) -> bool) -> AttrConstraint {
        AttrConstraint { description, check: Some(check), kind: ArgKind::Single }
    }
    /// A required attribute of any kind, described by `description`.
    pub const fn any(description: &'static str) -> AttrConstraint {
        AttrConstraint { description, check: None, kind: ArgKind::Single }
    }
    /// The same constraint on an attribute that may be absent.
    pub const fn optional(self) -> AttrConstraint {
        AttrConstraint { kind: ArgKind::Optional, ..self }
    }
    pub fn is_required(&self) -> bool {
        self.kind == ArgKind::Single
    }
    fn accepts(&self, ctx: &Context, a: Attr) -> bool {
        self.check.is_none_or(|f| f(ctx, a))
    }
}

/// A constraint on a region or successor: only its count is checked (`Optional` counts as
/// `Variadic`).
#[derive(Clone, Copy, Debug)]
pub struct SlotConstraint {
    pub description: &'static str,
    pub kind: ArgKind,
}

impl SlotConstraint {
    pub const fn new(description: &'static str) -> SlotConstraint {
        SlotConstraint { description, kind: ArgKind::Single }
    }
    pub const fn variadic(self) -> SlotConstraint {
        SlotConstraint { kind: ArgKind::Variadic, ..self }
    }
}

/// Any region.
pub const ANY_REGION: SlotConstraint = SlotConstraint::new("any region");
/// Any successor block.
pub const ANY_SUCCESSOR: SlotConstraint = SlotConstraint::new("any successor");

/// A named, constrained operand/result group, attribute, region or successor.
#[derive(Clone, Copy, Debug)]
pub struct Decl<C: 'static> {
    pub name: &'static str,
    pub constraint: C,
}

/// The declared structure of an op, checked by the verifier before the op's hook.
#[derive(Clone, Copy, Debug)]
pub struct OpDecl {
    pub operands: &'static [Decl<TypeConstraint>],
    pub results: &'static [Decl<TypeConstraint>],
    /// Inherent attributes: the properties first, then the declared attributes.
    pub attributes: &'static [Decl<AttrConstraint>],
    pub regions: &'static [Decl<SlotConstraint>],
    pub successors: &'static [Decl<SlotConstraint>],
}

/// The property holding operand group sizes when several operand groups are not single.
pub const OPERAND_SEGMENT_SIZES: &str = "operandSegmentSizes";
/// The property holding result group sizes when several result groups are not single.
pub const RESULT_SEGMENT_SIZES: &str = "resultSegmentSizes";

/// Which value list a group belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueList {
    Operands,
    Results,
}

impl ValueList {
    /// `operand` / `result`, as MLIR's messages say.
    pub fn noun(self) -> &'static str {
        match self {
            ValueList::Operands => "operand",
            ValueList::Results => "result",
        }
    }
    pub fn segment_attr(self) -> &'static str {
        match self {
            ValueList::Operands => OPERAND_SEGMENT_SIZES,
            ValueList::Results => RESULT_SEGMENT_SIZES,
        }
    }
}

/// Why the segment sizes of a value list are unusable (for the verifier's messages).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SegmentError {
    /// The attribute is there but not a dense `i32` array.
    NotI32Array,
    /// It has a negative entry.
    Negative,
    /// It has `found` entries for `expected` groups.
    WrongLength { expected: usize, found: usize },
    /// Its entries sum to `total` while the op has `count` values.
    CountMismatch { count: usize, total: usize },
}

impl OpDecl {
    pub fn groups(&self, list: ValueList) -> &'static [Decl<TypeConstraint>] {
        match list {
            ValueList::Operands => self.operands,
            ValueList::Results => self.results,
        }
    }

    /// True when group sizes come from the segment-sizes attribute (more than one group is
    /// optional or variadic).
    pub fn uses_segments(&self, list: ValueList) -> bool {
        self.groups(list).iter().filter(|d| d.constraint.kind != ArgKind::Single).count() > 1
    }

    /// The index range of each declared group of `list` in the op, or why it cannot be known.
    /// Without segment sizes, a count that cannot fit gives `CountMismatch`.
    pub fn group_ranges(
        &self,
        ctx: &Context,
        ir: &Ir,
        op: OpId,
        list: ValueList,
    ) -> Result<Vec<Range<usize>>, SegmentError> {
        let groups = self.groups(list);
        let count = match list {
            ValueList::Operands => ir.num_operands(op),
            ValueList::Results => ir.num_results(op),
        };
        let sizes = if self.uses_segments(list) {
            segment_sizes(ctx, ir, op, list.segment_attr(), groups.len(), count)?
        } else {
            sizes_from_count(groups, count)?
        };
        let mut start = 0;
        Ok(sizes
            .into_iter()
            .map(|n| {
                let r = start..start + n;
                start += n;
                r
            })
            .collect())
    }
}

/// Group sizes when at most one group is not single: singles take one value, the other group
/// takes the rest.
fn sizes_from_count(groups: &[Decl<TypeConstraint>], count: usize) -> Result<Vec<usize>, SegmentError> {
    let singles = groups.iter().filter(|d| d.constraint.kind == ArgKind::Single).count();
    let has_variable = singles < groups.len();
    if count < singles || (!has_variable && count != singles) {
        return Err(SegmentError::CountMismatch { count, total: singles });
    }
    Ok(groups.iter().map(|d| if d.constraint.kind == ArgKind::Single { 1 } else { count - singles }).collect())
}

/// The sizes recorded in the segment attribute `name` (props first, then attributes).
fn segment_sizes(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    name: &str,
    groups: usize,
    count: usize,
) -> Result<Vec<usize>, SegmentError> {
    let Some(attr) = inherent_attr(ctx, ir, op, name) else {
        return if count == 0 { Ok(vec![0; groups]) } else { Err(SegmentError::CountMismatch { count, total: 0 }) };
    };
    let AttrKind::DenseArray { elem, data: DenseArrayData::Int(values) } = ctx.attr_kind(attr) else {
        return Err(SegmentError::NotI32Array);
    };
    if !matches!(ctx.type_kind(*elem), TypeKind::Integer { width: 32, .. }) {
        return Err(SegmentError::NotI32Array);
    }
    if values.len() != groups {
        return Err(SegmentError::WrongLength { expected: groups, found: values.len() });
    }
    if values.iter().any(|&v| v < 0) {
        return Err(SegmentError::Negative);
    }
    let sizes: Vec<usize> = values.iter().map(|&v| v as usize).collect();
    let total: usize = sizes.iter().sum();
    if total != count {
        return Err(SegmentError::CountMismatch { count, total });
    }
    Ok(sizes)
}

/// An inherent attribute: from the properties, else from the discardable dictionary (generic
/// IR may keep inherent attributes there; MLIR accepts both).
pub fn inherent_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Attr> {
    ir.props(op).and_then(|p| ctx.dict_get(p, name)).or_else(|| ctx.dict_get(ir.attrs(op), name))
}

/// Checks an attribute against its constraint (used by the verifier).
pub(crate) fn attr_accepts(c: &AttrConstraint, ctx: &Context, a: Attr) -> bool {
    c.accepts(ctx, a)
}

/// Checks a type against its constraint (used by the verifier).
pub(crate) fn type_accepts(c: &TypeConstraint, ctx: &Context, t: Type) -> bool {
    c.accepts(ctx, t)
}

mod accessors;
mod hook_set;
mod macros;

pub use hook_set::HookSet;

#[cfg(test)]
mod tests;
