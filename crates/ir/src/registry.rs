//! Op definitions and the dialect registry.
//!
//! An [`OpDef`] is the one place that says everything about an op: its name, docs, traits,
//! operand/result/attribute descriptions (for docs and `--help`), and hooks (verifier, folder,
//! canonicalization patterns, custom assembly, result names). A [`DialectDef`] groups the ops
//! of a namespace, and declares its types and attributes ([`SymbolDef`]: parse, verify and
//! print hooks over structured parameters). Definitions are `'static` data, declared by the dialects crate; the
//! [`Registry`] is filled once, before a [`Context`] is made from it.
//!
//! The hook signatures use the abstract parser/printer/rewriter interfaces of
//! [`asm`](crate::asm) and [`rewrite_api`](crate::rewrite_api), so this module does not depend
//! on the concrete parser, printer or pattern driver.
//!
//! Layer: definitions, above the context and the interfaces their hooks are written against
//! (`context`, `asm`, `rewrite_api`, the diagnostic data, the declared structure of
//! `declare.rs`), below everything that reads definitions (printer, parser, verifier, pattern
//! driver). Files: this one (op, dialect and symbol definitions, hook types, [`Registry`]),
//! `args.rs` (argument descriptions, also used by `declare.rs` below this layer) and
//! `lookup.rs` (the `Context` methods that read the registry).

mod args;
mod lookup;

pub use args::{ArgDef, ArgKind};

use crate::asm::{DialectAsmParser, DialectAsmPrinter, OpAsmParser, OpAsmPrinter, ParseResult};
use crate::attrs::Attr;
use crate::attrs::DialectParam;
use crate::context::Context;
use crate::declare::OpDecl;
use crate::diag::Diagnostic;
use crate::ir::{Ir, OpId, OperationState, Value};
use crate::rewrite_api::Rewriter;
use crate::types::Type;
use rustc_hash::FxHashMap;

/// Op traits, as bit flags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Traits(pub u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// No side effects: dead ops may be erased, identical ops merged.
    pub const PURE: Traits = Traits(1 << 0);
    /// Must be the last op of its block.
    pub const TERMINATOR: Traits = Traits(1 << 1);
    /// Its regions may not use values defined outside (a pass anchor; runs in parallel).
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1 << 2);
    /// Its blocks need no terminator.
    pub const NO_TERMINATOR: Traits = Traits(1 << 3);
    /// Its regions are graph regions (no dominance, single block).
    pub const GRAPH_REGIONS: Traits = Traits(1 << 4);
    /// Defines a symbol (`sym_name`).
    pub const SYMBOL: Traits = Traits(1 << 5);
    /// Holds a symbol table in its single region.
    pub const SYMBOL_TABLE: Traits = Traits(1 << 6);
    /// Each region has at most one block.
    pub const SINGLE_BLOCK: Traits = Traits(1 << 7);
    /// Operands may be swapped (folding moves constants right).
    pub const COMMUTATIVE: Traits = Traits(1 << 8);
    /// Materializes a constant attribute (folds to its `value`).
    pub const CONSTANT_LIKE: Traits = Traits(1 << 9);
    /// Operands and results all have one type.
    pub const SAME_OPERANDS_AND_RESULT_TYPE: Traits = Traits(1 << 10);
    /// Returns control to the parent op (e.g. `func.return`).
    pub const RETURN_LIKE: Traits = Traits(1 << 11);
    /// May be at the top level of a file next to other ops (no implicit wrapper rules).
    pub const AFFINE_SCOPE: Traits = Traits(1 << 12);

    pub const fn union(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
    pub const fn contains(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, rhs: Traits) -> Traits {
        self.union(rhs)
    }
}

/// Names of the traits, for docs.
pub const TRAIT_NAMES: &[(Traits, &str)] = &[
    (Traits::PURE, "Pure"),
    (Traits::TERMINATOR, "Terminator"),
    (Traits::ISOLATED_FROM_ABOVE, "IsolatedFromAbove"),
    (Traits::NO_TERMINATOR, "NoTerminator"),
    (Traits::GRAPH_REGIONS, "GraphRegions"),
    (Traits::SYMBOL, "Symbol"),
    (Traits::SYMBOL_TABLE, "SymbolTable"),
    (Traits::SINGLE_BLOCK, "SingleBlock"),
    (Traits::COMMUTATIVE, "Commutative"),
    (Traits::CONSTANT_LIKE, "ConstantLike"),
    (Traits::SAME_OPERANDS_AND_RESULT_TYPE, "SameOperandsAndResultType"),
    (Traits::RETURN_LIKE, "ReturnLike"),
];

/// What a folder produced for one result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FoldResult {
    /// The result is this constant (materialized by the dialect's constant hook).
    Attr(Attr),
    /// The result is this existing value.
    Value(Value),
}

/// Context handed to verifiers.
pub struct VerifyCtx<'a> {
    pub ctx: &'a Context,
    pub ir: &'a Ir,
}

impl VerifyCtx<'_> {
    /// An error diagnostic at the op's location: `'name' op message`, as MLIR words it.
    pub fn op_error(&self, op: OpId, msg: impl std::fmt::Display) -> Diagnostic {
        let name = self.ctx.op_name_str(self.ir.op_name(op));
        Diagnostic::error(self.ir.loc(op), format!("'{name}' op {msg}"))
    }
}

pub type VerifyFn = fn(&VerifyCtx<'_>, OpId) -> Result<(), Diagnostic>;
/// `operands[i]` is the constant value of operand `i` when it is known.
pub type FoldFn = fn(&Context, &Ir, OpId, &[Option<Attr>]) -> Option<Vec<FoldResult>>;
/// A canonicalization pattern: tries to rewrite `op`; returns true if it changed the IR.
pub type PatternFn = fn(&mut dyn Rewriter, OpId) -> bool;
pub type ParseFn = fn(&mut dyn OpAsmParser, &mut OperationState) -> ParseResult<()>;
pub type PrintFn = fn(&mut dyn OpAsmPrinter, OpId);
/// Suggests names for results (`%c0`, `%true`): calls the callback with (value, name).
pub type ResultNamesFn = fn(&Context, &Ir, OpId, &mut dyn FnMut(Value, String));
/// The default values of properties that MLIR always materializes (`overflowFlags =
/// #arith.overflow<none>`): `(name, value)` pairs, added when the op is built or parsed without
/// them. See [`OpDef::complete_props`].
pub type DefaultPropsFn = fn(&Context) -> Vec<(&'static str, Attr)>;
/// Creates a constant op of `ty` holding `value`, before the rewriter's insertion point.
pub type MaterializeFn = fn(&mut dyn Rewriter, Attr, Type, Attr) -> Option<OpId>;

/// A named canonicalization pattern.
#[derive(Clone, Copy)]
pub struct PatternDef {
    pub name: &'static str,
    pub apply: PatternFn,
}

/// Everything about one op.
pub struct OpDef {
    /// Full name, `dialect.mnemonic`.
    pub name: &'static str,
    pub summary: &'static str,
    /// Markdown; may contain ```mlir examples.
    pub description: &'static str,
    pub traits: Traits,
    pub operands: &'static [ArgDef],
    pub results: &'static [ArgDef],
    pub attributes: &'static [ArgDef],
    pub regions: &'static [ArgDef],
    /// Names of attributes stored as properties (`<{...}>`) in the generic form.
    pub properties: &'static [&'static str],
    pub verify: Option<VerifyFn>,
    pub fold: Option<FoldFn>,
    pub canonicalize: &'static [PatternDef],
    pub parse: Option<ParseFn>,
    pub print: Option<PrintFn>,
    pub result_names: Option<ResultNamesFn>,
    /// Dialect whose prefix may be omitted for ops nested in this op's regions, in both the
    /// parser and the printer (`func.func` sets `func`, so `return` means `func.return`).
    pub default_dialect: Option<&'static str>,
    /// Default-valued properties; parsers and builders call [`OpDef::complete_props`] so that
    /// the generic form prints them as mlir-opt does.
    pub default_props: Option<DefaultPropsFn>,
    /// The declared structure (ops made with [`declare_op!`](crate::declare_op)): checked by
    /// the verifier before `verify` (counts, segments, attributes, type constraints).
    pub decl: Option<&'static OpDecl>,
    /// For branch terminators (MLIR's `BranchOpInterface`): the operands each successor
    /// receives. Region simplification uses it to drop unused block arguments.
    pub successor_operands: Option<SuccessorOperandsFn>,
    /// Erases one operand forwarded to a successor (with `successor_operands`).
    pub erase_successor_operand: Option<EraseSuccessorOperandFn>,
    /// Appends one operand to those forwarded to a successor (with `successor_operands`);
    /// identical-block merging uses it to pass the operands the merged blocks differ in.
    pub append_successor_operand: Option<AppendSuccessorOperandFn>,
    /// The result types the op has on operands of these types with these properties (MLIR's
    /// `InferTypeOpInterface::inferReturnTypes`): what builders that are not written per op
    /// (the facade's generic `op`, frontends) call.
    pub infer_result_types: Option<InferResultTypesFn>,
}

/// Result types from the operand types and the properties dictionary (if any); an error says
/// why the operands do not fit, in the op's words.
pub type InferResultTypesFn = fn(&Context, &[Type], Option<Attr>) -> Result<Vec<Type>, String>;

/// One range of operand indices per successor, or `None` for a malformed op.
pub type SuccessorOperandsFn = fn(&Context, &Ir, OpId) -> Option<Vec<std::ops::Range<usize>>>;
/// Erases operand `arg` of those forwarded to successor `succ`, keeping segment sizes right.
pub type EraseSuccessorOperandFn = fn(&Context, &mut Ir, OpId, usize, usize);
/// Appends `value` to the operands forwarded to successor `succ`, keeping segment sizes right.
pub type AppendSuccessorOperandFn = fn(&Context, &mut Ir, OpId, usize, Value);

impl OpDef {
    /// A definition with only a name and traits (fill the rest with struct update syntax).
    pub const fn new(name: &'static str, traits: Traits) -> OpDef {
        OpDef {
            name,
            summary: "",
            description: "",
            traits,
            operands: &[],
            results: &[],
            attributes: &[],
            regions: &[],
            properties: &[],
            verify: None,
            fold: None,
            canonicalize: &[],
            parse: None,
            print: None,
            result_names: None,
            default_dialect: None,
            default_props: None,
            successor_operands: None,
            erase_successor_operand: None,
            append_successor_operand: None,
            decl: None,
            infer_result_types: None,
        }
    }
    pub fn has(&self, t: Traits) -> bool {
        self.traits.contains(t)
    }
    /// `props` with every default-valued property that is missing added (MLIR stores such
    /// properties always, so its generic form prints them even when the input omitted them).
    /// Returns `props` unchanged when the op has no defaults.
    pub fn complete_props(&self, ctx: &Context, props: Option<Attr>) -> Option<Attr> {
        let Some(defaults) = self.default_props else { return props };
        let mut dict = props.unwrap_or_else(|| ctx.empty_dict());
        for (name, value) in defaults(ctx) {
            if ctx.dict_get(dict, name).is_none() {
                dict = ctx.dict_set(dict, name, Some(value));
            }
        }
        Some(dict)
    }
    /// The part after the dialect prefix.
    pub fn mnemonic(&self) -> &'static str {
        self.name.split_once('.').map(|(_, m)| m).unwrap_or(self.name)
    }
}

/// Parses the parameters of a dialect type or attribute (see [`DialectAsmParser`]).
pub type ParamsParseFn = fn(&mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>>;
/// Checks parameters; the message becomes an error at the mnemonic (parser) or is returned by
/// [`Context::dialect_type`] / [`Context::dialect_attr`].
pub type ParamsVerifyFn = fn(&Context, &[DialectParam]) -> Result<(), String>;
/// Prints the parameters (everything after the mnemonic, `<...>` included).
pub type ParamsPrintFn = fn(&mut dyn DialectAsmPrinter, &[DialectParam]);

/// A type (`!ns.mnemonic<...>`) or attribute (`#ns.mnemonic<...>`) a dialect declares; its
/// values are [`TypeKind::Dialect`](crate::types::TypeKind) / [`AttrKind::Dialect`](
/// crate::attrs::AttrKind) holding what `parse` returned.
pub struct SymbolDef {
    pub mnemonic: &'static str,
    pub summary: &'static str,
    /// Markdown for the reference page: syntax, meaning of each parameter, ```mlir examples.
    pub description: &'static str,
    pub parse: ParamsParseFn,
    pub verify: Option<ParamsVerifyFn>,
    pub print: ParamsPrintFn,
}
pub type TypeDef = SymbolDef;
pub type AttrDef = SymbolDef;

/// A dialect: a namespace, its ops, types and attributes.
pub struct DialectDef {
    pub namespace: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub ops: &'static [&'static OpDef],
    pub materialize_constant: Option<MaterializeFn>,
    /// Declared types. A `!ns.x` that is not declared is an error, also with
    /// `--allow-unregistered-dialect` (as mlir-opt).
    pub types: &'static [&'static TypeDef],
    /// Declared attributes. A `#ns.x` that is not declared is an error unless `opaque_attrs`.
    pub attrs: &'static [&'static AttrDef],
    /// Undeclared attributes are kept as opaque text (for dialects whose attributes are not
    /// modelled as [`AttrDef`]s yet, like `#arith.overflow<...>`).
    pub opaque_attrs: bool,
}

impl DialectDef {
    pub fn type_def(&self, mnemonic: &str) -> Option<&'static TypeDef> {
        self.types.iter().copied().find(|d| d.mnemonic == mnemonic)
    }
    pub fn attr_def(&self, mnemonic: &str) -> Option<&'static AttrDef> {
        self.attrs.iter().copied().find(|d| d.mnemonic == mnemonic)
    }
}

/// The registered dialects and ops, by name.
#[derive(Default)]
pub struct Registry {
    dialects: FxHashMap<&'static str, &'static DialectDef>,
    ops: FxHashMap<&'static str, &'static OpDef>,
    attr_canonicalizers: FxHashMap<&'static str, AttrBodyCanonicalizer>,
}

/// Rewrites the body of a dialect attribute (`overflow<nuw, nsw>` of `#arith.overflow<...>`)
/// into the form the dialect prints; `None` leaves it as written.
pub type AttrBodyCanonicalizer = fn(&str) -> Option<String>;

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a dialect and all its ops (registering twice is harmless).
    pub fn register(&mut self, d: &'static DialectDef) {
        self.dialects.insert(d.namespace, d);
        for &op in d.ops {
            self.ops.insert(op.name, op);
        }
    }

    pub fn op(&self, name: &str) -> Option<&'static OpDef> {
        self.ops.get(name).copied()
    }

    /// Makes the parser pass the bodies of `#namespace...` attributes through `f`, so that
    /// attributes a dialect models (but the IR keeps as text) are uniqued in printed form.
    pub fn register_attr_canonicalizer(&mut self, namespace: &'static str, f: AttrBodyCanonicalizer) {
        self.attr_canonicalizers.insert(namespace, f);
    }

    /// The canonical body of the dialect attribute `#namespace<body>`, if its dialect
    /// registered a canonicalizer that rewrites it.
    pub fn canonical_attr_body(&self, namespace: &str, body: &str) -> Option<String> {
        self.attr_canonicalizers.get(namespace).and_then(|f| f(body))
    }

    pub fn dialect(&self, namespace: &str) -> Option<&'static DialectDef> {
        self.dialects.get(namespace).copied()
    }

    /// Registered dialects, sorted by namespace.
    pub fn dialects(&self) -> Vec<&'static DialectDef> {
        let mut v: Vec<_> = self.dialects.values().copied().collect();
        v.sort_by_key(|d| d.namespace);
        v
    }
}
