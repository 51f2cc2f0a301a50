//! The parser's implementation of [`OpAsmParser`], the interface custom op `parse` hooks use.
//! Errors a hook reports through `emit_error*` (and the interface's own "expected ..."
//! messages, as MLIR's `AsmParserImpl` words them) are prefixed with `custom op 'NAME' `;
//! errors of the underlying grammar (types, attributes, punctuation) are not, as in MLIR.

use super::Parser;
use super::lexer::{TokKind, parse_u64_literal, punct_kind, string_value};
use crate::asm::{Argument, OpAsmParser, ParseFailure, ParseResult, Punct, UnresolvedOperand};
use crate::attrs::{Attr, Ident};
use crate::context::Context;
use crate::ir::{BlockId, Ir, RegionId, Value};
use crate::types::Type;

impl<'a> Parser<'a> {
    /// `msg` prefixed with the custom op being parsed, as MLIR's custom op parser does.
    fn custom_msg(&self, msg: &str) -> String {
        match self.custom_ops.last() {
            Some((name, _, _)) => format!("custom op '{name}' {msg}"),
            None => msg.to_string(),
        }
    }

    fn to_unresolved(&self, (name, number, offset): (&[u8], u32, usize)) -> UnresolvedOperand {
        UnresolvedOperand { name: self.str_of(name), number, offset }
    }
}

impl<'a> OpAsmParser for Parser<'a> {
    fn ctx(&self) -> &Context {
        self.ctx
    }
    fn ir_mut(&mut self) -> &mut Ir {
        self.ir
    }
    // A custom parser's explicit errors are all reported, as MLIR's `emitError` does.
    fn emit_error(&mut self, msg: &str) -> ParseFailure {
        let m = self.custom_msg(msg);
        let mut at = self.tok.start;
        if self.tok.kind == TokKind::Eof {
            at = at.saturating_sub(1);
        }
        self.error_also(at, m)
    }
    fn emit_error_at(&mut self, offset: usize, msg: &str) -> ParseFailure {
        let m = self.custom_msg(msg);
        self.error_also(offset, m)
    }
    fn current_offset(&self) -> usize {
        self.tok.start
    }
    fn name_offset(&self) -> usize {
        self.custom_ops.last().map_or(self.tok.start, |c| c.2)
    }
    fn loc_at(&self, offset: usize) -> Attr {
        Parser::loc_at(self, offset)
    }
    fn num_results(&self) -> usize {
        self.custom_ops.last().map_or(0, |c| c.1)
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
    fn parse_keyword(&mut self, kw: &str) -> ParseResult<()> {
        if self.consume_kw(kw) {
            return Ok(());
        }
        Err(self.emit_error(&format!("expected '{kw}'")))
    }
    fn parse_optional_bare_id(&mut self) -> Option<String> {
        if self.is(TokKind::BareIdent) {
            let s = self.str_of(self.tok_text());
            self.advance();
            return Some(s);
        }
        None
    }
    fn parse_optional_string(&mut self) -> Option<String> {
        if self.is(TokKind::String) {
            let s = String::from_utf8_lossy(&string_value(self.tok_text())).into_owned();
            self.advance();
            return Some(s);
        }
        None
    }
    fn parse_integer(&mut self) -> ParseResult<i64> {
        let at = self.tok.start;
        if self.consume_kw("true") {
            return Ok(1);
        }
        if self.consume_kw("false") {
            return Ok(0);
        }
        if !matches!(self.tok.kind, TokKind::Integer | TokKind::Minus) {
            return Err(self.emit_error_at(at, "expected integer value"));
        }
        let negative = self.consume_if(TokKind::Minus);
        if !self.is(TokKind::Integer) {
            return Err(self.wrong_token("expected integer value"));
        }
        let text = std::str::from_utf8(self.tok_text()).unwrap_or("");
        let v = parse_u64_literal(text);
        self.advance();
        let v = v.and_then(|v| {
            if negative {
                if v <= i64::MAX as u64 + 1 { Some((v as i64).wrapping_neg()) } else { None }
            } else {
                i64::try_from(v).ok()
            }
        });
        v.ok_or_else(|| self.emit_error_at(at, "integer value too large"))
    }

    fn parse_operand(&mut self) -> ParseResult<UnresolvedOperand> {
        let u = self.parse_ssa_use(true)?;
        Ok(self.to_unresolved(u))
    }
    fn parse_optional_operand(&mut self) -> ParseResult<Option<UnresolvedOperand>> {
        if !self.is(TokKind::PercentIdent) {
            return Ok(None);
        }
        self.parse_operand().map(Some)
    }
    fn parse_operand_list(&mut self) -> ParseResult<Vec<UnresolvedOperand>> {
        let mut out = Vec::new();
        if !self.is(TokKind::PercentIdent) {
            return Ok(out);
        }
        loop {
            out.push(self.parse_operand()?);
            if !self.consume_if(TokKind::Comma) {
                return Ok(out);
            }
        }
    }
    fn resolve_operand(&mut self, operand: &UnresolvedOperand, ty: Type) -> ParseResult<Value> {
        let Some(name) = self.name_at(operand.offset, &operand.name) else {
            return Err(self.error_at(operand.offset, "invalid SSA operand"));
        };
        self.resolve_value(name, operand.number, operand.offset, ty)
    }

    fn parse_type(&mut self) -> ParseResult<Type> {
        Parser::parse_type(self)
    }
    fn parse_optional_type(&mut self) -> ParseResult<Option<Type>> {
        Parser::parse_optional_type(self)
    }
    fn parse_type_list_parens_or_single(&mut self) -> ParseResult<Vec<Type>> {
        self.parse_function_result_types()
    }
    fn parse_type_list(&mut self) -> ParseResult<Vec<Type>> {
        let mut out = Vec::new();
        if !self.at_type_start() {
            return Ok(out);
        }
        self.parse_type_list_no_parens(&mut out)?;
        Ok(out)
    }
    fn parse_attribute(&mut self, ty: Option<Type>) -> ParseResult<Attr> {
        Parser::parse_attribute(self, ty)
    }
    fn parse_optional_attribute(&mut self, ty: Option<Type>) -> ParseResult<Option<Attr>> {
        Parser::parse_optional_attribute(self, ty)
    }
    fn parse_optional_attr_dict(&mut self, out: &mut Vec<(Ident, Attr)>) -> ParseResult<()> {
        if !self.is(TokKind::LBrace) {
            return Ok(());
        }
        self.nested(|p| p.parse_attr_dict(out))
    }
    fn parse_optional_attr_dict_with_keyword(&mut self, out: &mut Vec<(Ident, Attr)>) -> ParseResult<()> {
        if !self.consume_kw("attributes") {
            return Ok(());
        }
        self.nested(|p| p.parse_attr_dict(out))
    }
    fn parse_symbol_name(&mut self) -> ParseResult<String> {
        match self.parse_optional_symbol_name() {
            Some(s) => Ok(s),
            None => Err(self.emit_error("expected valid '@'-identifier for symbol name")),
        }
    }
    fn parse_optional_symbol_name(&mut self) -> Option<String> {
        if !self.is(TokKind::AtIdent) {
            return None;
        }
        let s = self.symbol_name_of_token();
        self.advance();
        Some(s)
    }
    fn parse_optional_location(&mut self) -> ParseResult<Option<Attr>> {
        self.parse_optional_location_specifier("expected '(' in location")
    }

    fn parse_argument(&mut self, with_type: bool, with_attrs: bool) -> ParseResult<Argument> {
        let u = self.parse_ssa_use(false)?;
        let operand = self.to_unresolved(u);
        let mut ty = self.ctx.none_type();
        if with_type {
            self.expect(TokKind::Colon, "expected ':'")?;
            ty = Parser::parse_type(self)?;
        }
        let mut attrs = None;
        if with_attrs && self.is(TokKind::LBrace) {
            let mut entries = Vec::new();
            self.nested(|p| p.parse_attr_dict(&mut entries))?;
            attrs = Some(self.ctx.dictionary(entries));
        }
        let loc = self.parse_optional_location()?;
        Ok(Argument { operand, ty, attrs, loc })
    }
    fn parse_optional_argument(&mut self, with_type: bool, with_attrs: bool) -> ParseResult<Option<Argument>> {
        if !self.is(TokKind::PercentIdent) {
            return Ok(None);
        }
        self.parse_argument(with_type, with_attrs).map(Some)
    }
    fn parse_region(&mut self, region: RegionId, args: &[Argument]) -> ParseResult<()> {
        self.parse_region_into(region, args)
    }
    fn parse_optional_region(&mut self, region: RegionId, args: &[Argument]) -> ParseResult<bool> {
        if !self.is(TokKind::LBrace) {
            return Ok(false);
        }
        self.parse_region_into(region, args)?;
        Ok(true)
    }
    fn parse_successor(&mut self) -> ParseResult<BlockId> {
        self.parse_successor_block()
    }
}
