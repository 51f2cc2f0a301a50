//! The interfaces custom op assembly is written against: [`OpAsmParser`] (implemented by the
//! parser) and [`OpAsmPrinter`] (implemented by the printer). They mirror MLIR's interfaces of the
//! same names, so an op's `parse`/`print` hooks read like their MLIR counterparts.
//!
//! Error convention: a `parse_*` method that fails has already emitted a diagnostic and returns
//! `Err(ParseFailure)`; a `parse_optional_*` method returns `Ok(None)`/`false` without consuming
//! input when the construct is absent.
//!
//! Layer: interfaces, above the context and the IR, below the op definitions whose `parse` and
//! `print` hooks take these traits as `dyn` objects; the implementations are in the parser and
//! the printer, so this file imports neither.

use crate::attrs::{Attr, Ident};
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value};
use crate::types::Type;

/// Marker: parsing failed and a diagnostic has been emitted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseFailure;

pub type ParseResult<T> = Result<T, ParseFailure>;

/// A use of an SSA value not yet resolved to a type: `%name` or `%name#3`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnresolvedOperand {
    pub name: String,
    pub number: u32,
    /// Byte offset of the `%` in the source, for diagnostics.
    pub offset: usize,
}

/// A region or function argument: `%arg0: i32 {attrs} loc(...)`.
#[derive(Clone, Debug)]
pub struct Argument {
    pub operand: UnresolvedOperand,
    pub ty: Type,
    /// Argument attribute dictionary, if written.
    pub attrs: Option<Attr>,
    pub loc: Option<Attr>,
}

/// Punctuation tokens a custom parser may ask for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Punct {
    Comma,
    Colon,
    Equal,
    Arrow,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Question,
    Star,
    Plus,
    Vertical,
}

impl Punct {
    pub fn spelling(self) -> &'static str {
        match self {
            Punct::Comma => ",",
            Punct::Colon => ":",
            Punct::Equal => "=",
            Punct::Arrow => "->",
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::LSquare => "[",
            Punct::RSquare => "]",
            Punct::Less => "<",
            Punct::Greater => ">",
            Punct::Question => "?",
            Punct::Star => "*",
            Punct::Plus => "+",
            Punct::Vertical => "|",
        }
    }
}

/// What a custom op parser can ask of the parser.
pub trait OpAsmParser {
    fn ctx(&self) -> &Context;
    fn ir_mut(&mut self) -> &mut Ir;
    /// Emits an error at the current token and returns the failure marker.
    fn emit_error(&mut self, msg: &str) -> ParseFailure;
    /// Emits an error at a byte offset of the source.
    fn emit_error_at(&mut self, offset: usize, msg: &str) -> ParseFailure;
    /// Byte offset of the current token.
    fn current_offset(&self) -> usize;
    /// Byte offset of the custom op's name (MLIR's `getNameLoc`).
    fn name_offset(&self) -> usize;
    /// Location attribute (`file:line:col`) for a byte offset.
    fn loc_at(&self, offset: usize) -> Attr;
    /// How many results the op was written with (`%0:2 = ...` gives 2).
    fn num_results(&self) -> usize;

    fn parse_optional_punct(&mut self, p: Punct) -> bool;
    fn parse_punct(&mut self, p: Punct) -> ParseResult<()>;
    /// A bare keyword (`private`, `attributes`, `eq`).
    fn parse_optional_keyword(&mut self, kw: &str) -> bool;
    fn parse_keyword(&mut self, kw: &str) -> ParseResult<()>;
    /// Any bare identifier at the current position.
    fn parse_optional_bare_id(&mut self) -> Option<String>;
    fn parse_optional_string(&mut self) -> Option<String>;
    fn parse_integer(&mut self) -> ParseResult<i64>;

    fn parse_operand(&mut self) -> ParseResult<UnresolvedOperand>;
    fn parse_optional_operand(&mut self) -> ParseResult<Option<UnresolvedOperand>>;
    /// Comma-separated operands (possibly none).
    fn parse_operand_list(&mut self) -> ParseResult<Vec<UnresolvedOperand>>;
    fn resolve_operand(&mut self, operand: &UnresolvedOperand, ty: Type) -> ParseResult<Value>;

    fn parse_type(&mut self) -> ParseResult<Type>;
    fn parse_optional_type(&mut self) -> ParseResult<Option<Type>>;
    /// `type` or `(type, ...)` (the result list of a function type).
    fn parse_type_list_parens_or_single(&mut self) -> ParseResult<Vec<Type>>;
    /// Comma-separated types (possibly none).
    fn parse_type_list(&mut self) -> ParseResult<Vec<Type>>;
    /// An attribute; with `ty`, an integer/float literal gets that type and no `: type` suffix.
    fn parse_attribute(&mut self, ty: Option<Type>) -> ParseResult<Attr>;
    fn parse_optional_attribute(&mut self, ty: Option<Type>) -> ParseResult<Option<Attr>>;
    /// `{a = 1, b}` if present: entries appended to `out`.
    fn parse_optional_attr_dict(&mut self, out: &mut Vec<(Ident, Attr)>) -> ParseResult<()>;
    /// `attributes {a = 1}` if present.
    fn parse_optional_attr_dict_with_keyword(&mut self, out: &mut Vec<(Ident, Attr)>) -> ParseResult<()>;
    /// `@name` (also `@"quoted"`).
    fn parse_symbol_name(&mut self) -> ParseResult<String>;
    fn parse_optional_symbol_name(&mut self) -> Option<String>;
    /// `loc(...)` if present.
    fn parse_optional_location(&mut self) -> ParseResult<Option<Attr>>;

    /// `%name: type {attrs}? loc(...)?` (types required when `with_type`).
    fn parse_argument(&mut self, with_type: bool, with_attrs: bool) -> ParseResult<Argument>;
    fn parse_optional_argument(&mut self, with_type: bool, with_attrs: bool) -> ParseResult<Option<Argument>>;
    /// A `{ ... }` region into `region`; `args` become the entry block's arguments.
    fn parse_region(&mut self, region: RegionId, args: &[Argument]) -> ParseResult<()>;
    fn parse_optional_region(&mut self, region: RegionId, args: &[Argument]) -> ParseResult<bool>;
    fn parse_successor(&mut self) -> ParseResult<BlockId>;
}

/// What a custom op printer can ask of the printer.
pub trait OpAsmPrinter {
    fn ctx(&self) -> &Context;
    fn ir(&self) -> &Ir;
    fn write(&mut self, s: &str);
    fn print_operand(&mut self, v: Value);
    /// `%a, %b`.
    fn print_operands(&mut self, vs: &[Value]);
    fn print_type(&mut self, t: Type);
    /// `t` or `(t1, t2)`: a function result list.
    fn print_arrow_type_list(&mut self, ts: &[Type]);
    /// Attribute with its type suffix where MLIR prints one.
    fn print_attribute(&mut self, a: Attr);
    /// Attribute without the `: type` suffix of integers and floats.
    fn print_attribute_without_type(&mut self, a: Attr);
    /// ` {a = 1}` unless every entry is elided (prints nothing then).
    fn print_optional_attr_dict(&mut self, dict: Attr, elided: &[&str]);
    /// ` attributes {a = 1}` unless every entry is elided.
    fn print_optional_attr_dict_with_keyword(&mut self, dict: Attr, elided: &[&str]);
    /// `@name` with quoting when needed.
    fn print_symbol_name(&mut self, name: &str);
    /// A block argument declaration: `%arg0: i32`, then ` {attrs}` when `attrs` is a non-empty
    /// dictionary, then ` loc(...)` with debug info.
    fn print_region_argument(&mut self, v: Value, attrs: Option<Attr>);
    /// A region in `{ ... }` on new lines; the entry block's label and arguments are printed
    /// only when `print_entry_block_args` and it has arguments (or other blocks branch to it).
    fn print_region(&mut self, r: RegionId, print_entry_block_args: bool, print_empty_block: bool);
    fn print_successor(&mut self, b: BlockId);
    /// A newline followed by the indentation of the op being printed (MLIR's `printNewline`).
    fn print_newline(&mut self);
    /// The op being printed (for hooks that print nested ops generically).
    fn current_op(&self) -> OpId;
}

/// What a registered dialect type or attribute `parse` hook can ask of the parser. The hook is
/// called just after the mnemonic (`!host.buf` / `#test_d.level`), at the `<` of the parameters
/// when there are any, and must consume exactly the parameters (`<...>` included). Errors point
/// into the source text of the type or attribute.
pub trait DialectAsmParser {
    fn ctx(&self) -> &Context;
    /// Emits an error at the current token and returns the failure marker.
    fn emit_error(&mut self, msg: &str) -> ParseFailure;
    fn emit_error_at(&mut self, offset: usize, msg: &str) -> ParseFailure;
    fn current_offset(&self) -> usize;
    fn parse_optional_punct(&mut self, p: Punct) -> bool;
    fn parse_punct(&mut self, p: Punct) -> ParseResult<()>;
    fn parse_optional_keyword(&mut self, kw: &str) -> bool;
    /// Any bare identifier (`device`, `DIDx`), or an error `expected {what}`.
    fn parse_any_keyword(&mut self, what: &str) -> ParseResult<String>;
    fn parse_optional_string(&mut self) -> Option<String>;
    fn parse_integer(&mut self) -> ParseResult<i64>;
    /// `4x?x8x`: the extents of a ranked shape followed by `x` each (`?` is `DYNAMIC`), as in
    /// `tensor<4x?x8xf32>`; stops before the element type.
    fn parse_dimension_list(&mut self) -> ParseResult<Vec<i64>>;
    fn parse_type(&mut self) -> ParseResult<Type>;
    fn parse_attribute(&mut self) -> ParseResult<Attr>;
}

/// What a registered dialect type or attribute `print` hook can ask of the printer. The printer
/// has already written `!dialect.mnemonic` (or `#dialect.mnemonic`); the hook writes the rest.
pub trait DialectAsmPrinter {
    fn ctx(&self) -> &Context;
    fn write(&mut self, s: &str);
    fn print_type(&mut self, t: Type);
    fn print_attribute(&mut self, a: Attr);
    /// `4x?x8x` (each extent followed by `x`).
    fn print_dimension_list(&mut self, shape: &[i64]) {
        for &d in shape {
            if d == crate::types::DYNAMIC {
                self.write("?x");
            } else {
                self.write(&format!("{d}x"));
            }
        }
    }
}
