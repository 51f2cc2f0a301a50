//! Types and attributes of registered dialects: `!ns.mnemonic<params>` / `#ns.mnemonic<params>`
//! where the dialect declares the mnemonic ([`SymbolDef`]). The parameters are parsed by the
//! definition's hook through the parser's implementation of [`DialectAsmParser`], then checked
//! by its verify hook.
//!
//! The pretty form is parsed in place: the parser is moved back to just after the mnemonic, so
//! the hook sees the real tokens (aliases included) and every error points into the source. The
//! quoted form `!ns<"mnemonic<params>">` is parsed by a parser over the string's contents; its
//! errors are reported at the start of the string.
//!
//! Strictness follows mlir-opt, also with `--allow-unregistered-dialect`: an undeclared type of
//! a registered dialect is an error; an undeclared attribute too, unless the dialect keeps its
//! attributes as opaque text ([`DialectDef::opaque_attrs`]).

use super::lexer::{TokKind, punct_kind, string_value};
use super::{PResult, Parser};
use crate::asm::{DialectAsmParser, ParseFailure, ParseResult, Punct};
use crate::attrs::{Attr, DialectData, DialectParam};
use crate::context::Context;
use crate::diag::SourceFile;
use crate::ir::Ir;
use crate::registry::{DialectDef, SymbolDef};
use crate::types::Type;
use std::sync::Arc;

/// A dialect symbol as [`Parser::parse_extended_symbol`] read it.
pub(super) struct Symbol<'s> {
    pub dialect: &'s str,
    pub data: &'s str,
    pub data_off: usize,
    pub verbatim: bool,
}

impl Symbol<'_> {
    /// Where problems with the mnemonic or parameters are reported: the mnemonic (pretty form)
    /// or the start of the quoted string.
    fn error_offset(&self) -> usize {
        if self.verbatim { self.data_off } else { self.data_off + 1 + self.dialect.len() + 1 }
    }

    /// The mnemonic: the text before `<` (`pair`, `async.token`), of the unquoted body.
    fn mnemonic(&self) -> &str {
        let data = self.data.strip_prefix('"').unwrap_or(self.data);
        let end = data.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'));
        &data[..end.unwrap_or(data.len())]
    }

    /// Where the text after the dialect name is: `!d.body` and `!d<body>` are source text,
    /// `!d<"body">` is a string to unescape.
    fn body(&self) -> Body {
        if self.verbatim {
            return Body::InPlace(self.data_off);
        }
        if self.data.len() >= 2 && self.data.starts_with('"') && self.data.ends_with('"') {
            let text = String::from_utf8_lossy(&string_value(self.data.as_bytes())).into_owned();
            return Body::Quoted(text);
        }
        Body::InPlace(self.error_offset())
    }
}

/// See [`Symbol::body`].
enum Body {
    /// The body is the source text at this offset.
    InPlace(usize),
    Quoted(String),
}

impl<'a> Parser<'a> {
    /// Parses `symbol` with its dialect's hooks when the dialect is registered and declares the
    /// mnemonic; `Ok(None)` when the symbol stays opaque (unregistered dialect, or an undeclared
    /// attribute of a dialect with `opaque_attrs`); an error for an undeclared symbol otherwise.
    pub(super) fn parse_registered_dialect_symbol(
        &mut self,
        symbol: Symbol<'_>,
        is_type: bool,
    ) -> PResult<Option<DialectData>> {
        let Some(dialect) = self.ctx.dialect(symbol.dialect) else { return Ok(None) };
        let mnemonic = symbol.mnemonic();
        let def = if is_type { dialect.type_def(mnemonic) } else { dialect.attr_def(mnemonic) };
        let Some(def) = def else {
            if !is_type && dialect.opaque_attrs {
                return Ok(None);
            }
            let msg = undeclared_symbol_message(dialect, mnemonic, is_type);
            return Err(self.error_at(symbol.error_offset(), msg));
        };
        let params = match symbol.body() {
            Body::InPlace(offset) => {
                let resume = self.prev_end;
                let start = offset + mnemonic.len();
                let params = self.run_params_hook(def, start, offset + symbol.data.len())?;
                self.reset_to(resume);
                params
            }
            Body::Quoted(text) => self.parse_quoted_params(def, &symbol, &text, mnemonic.len())?,
        };
        if let Some(verify) = def.verify {
            verify(self.ctx, &params).map_err(|msg| self.error_at(symbol.error_offset(), msg))?;
        }
        Ok(Some(DialectData { dialect: symbol.dialect.into(), mnemonic: mnemonic.into(), params }))
    }

    /// Runs the parse hook on the source range `start..end` (the parameters after the mnemonic)
    /// and leaves the parser just after `end`.
    fn run_params_hook(&mut self, def: &SymbolDef, start: usize, end: usize) -> PResult<Vec<DialectParam>> {
        self.enter_nesting()?;
        self.reset_to(start);
        let params = (def.parse)(self)?;
        if self.prev_end != end {
            let at = if self.prev_end < end { self.tok.start } else { end };
            return Err(self.error_at(at, format!("unexpected text in the parameters of '{}'", def.mnemonic)));
        }
        self.leave_nesting();
        Ok(params)
    }

    /// `!ns<"mnemonic<params>">`: parses the string's contents with a parser of their own.
    fn parse_quoted_params(
        &mut self,
        def: &SymbolDef,
        symbol: &Symbol<'_>,
        text: &str,
        mnemonic_len: usize,
    ) -> PResult<Vec<DialectParam>> {
        let file = SourceFile::new("<dialect symbol>", Arc::from(text));
        let mut ir = Ir::new();
        let mut sub = Parser::new(self.ctx, &mut ir, &file);
        sub.depth = self.depth;
        match sub.run_params_hook(def, mnemonic_len, text.len()) {
            Ok(params) => Ok(params),
            Err(ParseFailure) => {
                let msg = sub.take_diag().message;
                Err(self.error_at(symbol.error_offset(), msg))
            }
        }
    }
}

/// mlir-opt's words for an undeclared type or attribute of a registered dialect.
fn undeclared_symbol_message(dialect: &DialectDef, mnemonic: &str, is_type: bool) -> String {
    let ns = dialect.namespace;
    match (is_type, is_type && dialect.types.is_empty() || !is_type && dialect.attrs.is_empty()) {
        (true, true) => format!("dialect '{ns}' provides no type parsing hook"),
        (false, true) => format!("dialect '{ns}' provides no attribute parsing hook"),
        (true, false) => format!("unknown {ns} type: {mnemonic}"),
        (false, false) => format!("unknown attribute `{mnemonic}` in dialect `{ns}`"),
    }
}

impl DialectAsmParser for Parser<'_> {
    fn ctx(&self) -> &Context {
        self.ctx
    }
    fn emit_error(&mut self, msg: &str) -> ParseFailure {
        self.error_here(msg)
    }
    fn emit_error_at(&mut self, offset: usize, msg: &str) -> ParseFailure {
        self.error_at(offset, msg)
    }
    fn current_offset(&self) -> usize {
        self.tok.start
    }
    fn parse_optional_punct(&mut self, p: Punct) -> bool {
        self.consume_if(punct_kind(p))
    }
    fn parse_punct(&mut self, p: Punct) -> ParseResult<()> {
        let msg = format!("expected '{}'", p.spelling());
        self.expect(punct_kind(p), &msg)
    }
    fn parse_optional_keyword(&mut self, kw: &str) -> bool {
        self.consume_kw(kw)
    }
    fn parse_any_keyword(&mut self, what: &str) -> ParseResult<String> {
        if !self.is(TokKind::BareIdent) {
            return Err(self.error_here(format!("expected {what}")));
        }
        let s = self.str_of(self.tok_text());
        self.advance();
        Ok(s)
    }
    fn parse_optional_string(&mut self) -> Option<String> {
        if !self.is(TokKind::String) {
            return None;
        }
        let s = String::from_utf8_lossy(&string_value(self.tok_text())).into_owned();
        self.advance();
        Some(s)
    }
    fn parse_integer(&mut self) -> ParseResult<i64> {
        let at = self.tok.start;
        let negative = self.consume_if(TokKind::Minus);
        if !self.is(TokKind::Integer) {
            return Err(self.error_at(at, "expected integer value"));
        }
        let text = self.str_of(self.tok_text());
        let magnitude = match text.strip_prefix("0x") {
            Some(hex) => i64::from_str_radix(hex, 16).ok(),
            None => text.parse::<i64>().ok(),
        };
        let Some(m) = magnitude else { return Err(self.error_at(at, "integer value too large")) };
        self.advance();
        Ok(if negative { -m } else { m })
    }
    fn parse_dimension_list(&mut self) -> ParseResult<Vec<i64>> {
        self.parse_dimension_list_ranked()
    }
    fn parse_type(&mut self) -> ParseResult<Type> {
        Parser::parse_type(self)
    }
    fn parse_attribute(&mut self) -> ParseResult<Attr> {
        Parser::parse_attribute(self, None)
    }
}
