//! The attribute grammar: integers, floats, booleans, unit, strings, arrays, dictionaries,
//! `dense<...>`, `array<...>`, symbol references, type attributes, `affine_map`/`affine_set`,
//! `strided<...>`, opaque dialect attributes, aliases and locations. Checks and messages follow
//! mlir-opt-19.
//!
//! Canonical forms chosen so that uniquing matches MLIR's attribute identity: an `i1` integer
//! is a [`AttrKind::Bool`]; a dense literal whose elements are all equal is a splat; a
//! `dense<"0x...">` payload of a byte-sized integer or float element type is decoded into
//! elements; affine maps and sets are stored as normalized text (parsed, lightly simplified and
//! re-printed the way mlir-opt prints them); opaque dialect symbols keep their body verbatim.

use super::float::{float_bits_from_f64, parse_float_literal};
use super::lexer::{TokKind, parse_u64_literal, string_value};
use super::{PResult, Parser};
use crate::apint::ApInt;
use crate::attrs::{Attr, AttrKind, DenseArrayData, DenseData, Ident};
use crate::types::{DYNAMIC, FloatKind, Signedness, Type, TypeKind};

/// The result of reading an `!...` / `#...` token.
pub(super) enum Extended<'a> {
    /// `!name` / `#name`: an alias.
    Alias(&'a [u8]),
    /// A dialect symbol: namespace, body text and the offset to report problems at. `verbatim`:
    /// `data` is the source text at `data_off` (the pretty form `!d.body`), not the contents of
    /// a quoted `!d<"body">`.
    Dialect { dialect: String, data: String, data_off: usize, verbatim: bool },
}

/// MLIR's rule for printing a dialect symbol as `!dialect.body` rather than `!dialect<body>`.
pub(super) fn is_simple_enough_for_pretty(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return false;
    }
    let rest: &[u8] = match b.iter().position(|c| !(c.is_ascii_alphanumeric() || *c == b'.' || *c == b'_')) {
        None => return true,
        Some(i) => &b[i..],
    };
    rest[0] == b'<' && rest[rest.len() - 1] == b'>'
}

impl<'a> Parser<'a> {
    /// Reads an extended symbol (`!x` or `#x` token plus an optional `<...>` body).
    pub(super) fn parse_extended_symbol(&mut self, _is_type: bool) -> PResult<Extended<'a>> {
        let tok = self.tok;
        let ident = &self.src[tok.start + 1..tok.end];
        self.advance();
        let (dialect, data): (&[u8], &[u8]) = match ident.iter().position(|&c| c == b'.') {
            Some(i) => (&ident[..i], &ident[i + 1..]),
            None => (ident, &[]),
        };
        let is_pretty = !data.is_empty() || ident.last() == Some(&b'.');
        let has_body = self.is(TokKind::Less) && self.tok.start == tok.end;
        if !has_body && !is_pretty {
            return Ok(Extended::Alias(ident));
        }
        let dialect = self.str_of(dialect);
        if !is_pretty {
            let (s, e) = self.parse_dialect_symbol_body()?;
            let data = self.str_of(&self.src[s + 1..e - 1]);
            return Ok(Extended::Dialect { dialect, data, data_off: tok.start, verbatim: false });
        }
        let data_start = tok.start + 1 + dialect.len() + 1;
        let end = if has_body { self.parse_dialect_symbol_body()?.1 } else { tok.end };
        let data = self.str_of(&self.src[data_start.min(end)..end]);
        Ok(Extended::Dialect { dialect, data, data_off: data_start, verbatim: true })
    }

    /// Scans a `<...>` dialect body at the current `<` token, balancing `<>`, `[]`, `()`, `{}`
    /// and skipping strings and `->`; returns its byte range and moves past it.
    fn parse_dialect_symbol_body(&mut self) -> PResult<(usize, usize)> {
        let start = self.tok.start;
        let mut err_at = start;
        let mut stack: Vec<u8> = Vec::new();
        let mut i = start;
        loop {
            let c = self.src.get(i).copied().unwrap_or(0);
            i += 1;
            match c {
                0 => {
                    let msg = match stack.last() {
                        Some(&open) => format!("unbalanced '{}' character in pretty dialect name", open as char),
                        None => "unexpected nul or EOF in pretty dialect name".to_string(),
                    };
                    return Err(self.error_at(err_at, msg));
                }
                b'<' | b'[' | b'(' | b'{' => stack.push(c),
                b'-' if self.src.get(i) == Some(&b'>') => i += 1,
                b'>' | b']' | b')' | b'}' => {
                    let open = match c {
                        b'>' => b'<',
                        b']' => b'[',
                        b')' => b'(',
                        _ => b'{',
                    };
                    match stack.last() {
                        Some(&top) if top == open => {
                            stack.pop();
                        }
                        Some(&top) => {
                            let msg = format!("unbalanced '{}' character in pretty dialect name", top as char);
                            return Err(self.error_at(err_at, msg));
                        }
                        None => return Err(self.error_at(err_at, "unbalanced character in pretty dialect name")),
                    }
                    if stack.is_empty() {
                        break;
                    }
                }
                b'"' => {
                    self.reset_to(i - 1);
                    if self.is(TokKind::Error) {
                        return Err(super::ParseFailure);
                    }
                    err_at = self.tok.start;
                    i = self.tok.end;
                }
                _ => {}
            }
        }
        self.reset_to(i);
        Ok((start, i))
    }

    /// True if the current token starts an attribute (MLIR's `parseOptionalAttribute` set).
    fn at_attribute_start(&self) -> bool {
        match self.tok.kind {
            TokKind::AtIdent
            | TokKind::Float
            | TokKind::Integer
            | TokKind::HashIdent
            | TokKind::LBrace
            | TokKind::LSquare
            | TokKind::Minus
            | TokKind::String => true,
            TokKind::BareIdent => matches!(
                self.tok_text(),
                b"affine_map"
                    | b"affine_set"
                    | b"dense"
                    | b"dense_resource"
                    | b"false"
                    | b"true"
                    | b"loc"
                    | b"sparse"
                    | b"unit"
                    | b"array"
                    | b"strided"
                    | b"distinct"
            ),
            _ => false,
        }
    }

    pub(crate) fn parse_optional_attribute(&mut self, ty: Option<Type>) -> PResult<Option<Attr>> {
        if self.at_attribute_start() {
            return self.parse_attribute(ty).map(Some);
        }
        Ok(self.parse_optional_type()?.map(|t| self.ctx.type_attr(t)))
    }

    /// `attribute-value`, with `ty` the type imposed by the context (no `: type` then).
    pub(crate) fn parse_attribute(&mut self, ty: Option<Type>) -> PResult<Attr> {
        let start = self.tok.start;
        // Opaque `#dialect.x<...>` attributes may take a `: type` suffix (a look past their
        // last token), so they are not memoized.
        let cacheable = ty.is_none()
            && match self.tok.kind {
                TokKind::LBrace | TokKind::LSquare => true,
                TokKind::BareIdent => self.src.get(self.tok.end) == Some(&b'<'),
                _ => false,
            };
        if let Some((end, a)) = cacheable.then(|| self.attr_cache.lookup(self.src, start)).flatten() {
            self.reset_to(end);
            return Ok(a);
        }
        self.enter_nesting()?;
        let r = self.parse_attribute_uncached(ty);
        self.leave_nesting();
        let a = r?;
        if cacheable {
            self.attr_cache.insert(self.src, start, self.prev_end, a);
        }
        Ok(a)
    }

    fn parse_attribute_uncached(&mut self, ty: Option<Type>) -> PResult<Attr> {
        match self.tok.kind {
            TokKind::LSquare => {
                self.advance();
                let mut elems = Vec::new();
                self.parse_comma_list_until(TokKind::RSquare, "]", true, |p| {
                    elems.push(p.parse_attribute(None)?);
                    Ok(())
                })?;
                Ok(self.ctx.array_attr(elems))
            }
            TokKind::LBrace => {
                let mut entries = Vec::new();
                self.parse_attr_dict(&mut entries)?;
                Ok(self.ctx.dictionary(entries))
            }
            TokKind::HashIdent => self.parse_extended_attr(ty),
            TokKind::Float => self.parse_float_attr(ty, false),
            TokKind::Integer => self.parse_dec_or_hex_attr(ty, false),
            TokKind::Minus => {
                self.advance();
                match self.tok.kind {
                    TokKind::Integer => self.parse_dec_or_hex_attr(ty, true),
                    TokKind::Float => self.parse_float_attr(ty, true),
                    _ => Err(self.wrong_token("expected constant integer or floating point value")),
                }
            }
            TokKind::String => {
                let value = string_value(self.tok_text());
                self.advance();
                let mut sty = ty;
                if sty.is_none() && self.consume_if(TokKind::Colon) {
                    sty = Some(self.parse_type()?);
                }
                Ok(self.ctx.intern_attr(AttrKind::String { value: value.into(), ty: sty }))
            }
            TokKind::AtIdent => self.parse_symbol_ref_attr(),
            TokKind::BareIdent => match self.tok_text() {
                b"true" | b"false" => {
                    let b = self.tok_text() == b"true";
                    self.advance();
                    Ok(self.ctx.bool_attr(b))
                }
                b"unit" => {
                    self.advance();
                    Ok(self.ctx.unit_attr())
                }
                b"affine_map" => self.parse_affine_attr(true),
                b"affine_set" => self.parse_affine_attr(false),
                b"dense" => self.parse_dense_elements_attr(ty),
                b"array" => self.parse_dense_array_attr(),
                b"strided" => self.parse_strided_attr(),
                b"loc" => {
                    self.advance();
                    self.expect(TokKind::LParen, "expected '(' in inline location")?;
                    let l = self.parse_location_instance()?;
                    self.expect(TokKind::RParen, "expected ')' in inline location")?;
                    Ok(l)
                }
                b"distinct" => self.parse_distinct_attr(),
                b"dense_resource" => self.parse_dense_resource_attr(),
                b"sparse" => self.parse_sparse_attr(),
                _ => self.parse_type_attr(),
            },
            _ => self.parse_type_attr(),
        }
    }

    fn parse_type_attr(&mut self) -> PResult<Attr> {
        match self.parse_optional_type()? {
            Some(t) => Ok(self.ctx.type_attr(t)),
            None => Err(self.wrong_token("expected attribute value")),
        }
    }

    /// MLIR's `parseCommaSeparatedListUntil`: the opening token is already consumed.
    pub(crate) fn parse_comma_list_until(
        &mut self,
        close: TokKind,
        close_spelling: &str,
        allow_empty: bool,
        mut f: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        if self.is(close) {
            if !allow_empty {
                return Err(self.wrong_token("expected list element"));
            }
            self.advance();
            return Ok(());
        }
        loop {
            f(self)?;
            if !self.consume_if(TokKind::Comma) {
                break;
            }
        }
        let msg = format!("expected ',' or '{close_spelling}'");
        self.expect(close, &msg)
    }

    /// `{a = 1, "b" = 2, flag}`: entries appended to `out` (keys checked for duplicates).
    pub(crate) fn parse_attr_dict(&mut self, out: &mut Vec<(Ident, Attr)>) -> PResult<()> {
        self.expect(TokKind::LBrace, "expected '{' in attribute dictionary")?;
        if self.consume_if(TokKind::RBrace) {
            return Ok(());
        }
        let first = out.len();
        loop {
            let name: Vec<u8> = match self.tok.kind {
                TokKind::String => string_value(self.tok_text()),
                TokKind::BareIdent | TokKind::IntType => self.tok_text().to_vec(),
                _ => return Err(self.wrong_token("expected attribute name")),
            };
            if name.is_empty() {
                return Err(self.error_here("expected valid attribute name"));
            }
            let name = String::from_utf8_lossy(&name).into_owned();
            let key = self.ctx.ident(&name);
            if out[first..].iter().any(|(k, _)| *k == key) {
                return Err(self.error_here(format!("duplicate key '{name}' in dictionary attribute")));
            }
            self.advance();
            let value =
                if self.consume_if(TokKind::Equal) { self.parse_attribute(None)? } else { self.ctx.unit_attr() };
            out.push((key, value));
            if !self.consume_if(TokKind::Comma) {
                break;
            }
        }
        self.expect(TokKind::RBrace, "expected '}' in attribute dictionary")
    }

    /// An op's attribute dictionary as a dictionary attribute, looked up by its text first.
    pub(crate) fn parse_attr_dict_attr(&mut self) -> PResult<Attr> {
        let start = self.tok.start;
        if let Some((end, a)) = self.attr_cache.lookup(self.src, start) {
            self.reset_to(end);
            return Ok(a);
        }
        let mut entries = Vec::new();
        self.nested(|p| p.parse_attr_dict(&mut entries))?;
        let a = self.ctx.dictionary(entries);
        self.attr_cache.insert(self.src, start, self.prev_end, a);
        Ok(a)
    }

    fn parse_symbol_ref_attr(&mut self) -> PResult<Attr> {
        let root = self.symbol_name_of_token();
        self.advance();
        let mut nested = Vec::new();
        while self.is(TokKind::Colon) {
            let colon_at = self.tok.start;
            self.advance();
            if !self.consume_if(TokKind::Colon) {
                if !matches!(self.tok.kind, TokKind::Eof | TokKind::Error) {
                    self.reset_to(colon_at);
                }
                break;
            }
            if !self.is(TokKind::AtIdent) {
                return Err(self.error_here("expected nested symbol reference identifier"));
            }
            nested.push(self.symbol_name_of_token());
            self.advance();
        }
        let root = self.ctx.ident(&root);
        let nested = nested.iter().map(|n| self.ctx.ident(n)).collect();
        Ok(self.ctx.intern_attr(AttrKind::SymbolRef { root, nested }))
    }

    /// The name of the current `@name` / `@"name"` token.
    pub(crate) fn symbol_name_of_token(&self) -> String {
        let s = &self.tok_text()[1..];
        if s.first() == Some(&b'"') { String::from_utf8_lossy(&string_value(s)).into_owned() } else { self.str_of(s) }
    }

    fn parse_extended_attr(&mut self, ty: Option<Type>) -> PResult<Attr> {
        let tok_start = self.tok.start;
        let (dialect, data, data_off, verbatim) = match self.parse_extended_symbol(false)? {
            Extended::Alias(name) => {
                return match self.attr_aliases.get(name).copied() {
                    Some(a) => Ok(a),
                    None => {
                        let msg = format!("undefined symbol alias id '{}'", String::from_utf8_lossy(name));
                        Err(self.wrong_token(&msg))
                    }
                };
            }
            Extended::Dialect { dialect, data, data_off, verbatim } => (dialect, data, data_off, verbatim),
        };
        let _ = tok_start;
        let mut attr_ty = ty;
        if self.consume_if(TokKind::Colon) {
            attr_ty = Some(self.parse_type()?);
        }
        if !self.ctx.allows_unregistered() && self.ctx.dialect(&dialect).is_none() {
            let tyname = attr_ty.map(|t| super::display::type_to_string(self.ctx, t)).unwrap_or_else(|| "none".into());
            let msg = format!(
                "#\"{dialect}\"<\"{data}\"> : '{tyname}' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
            );
            return Err(self.error_at(data_off, msg));
        }
        let symbol = super::dialect::Symbol { dialect: &dialect, data: &data, data_off, verbatim };
        if let Some(data) = self.parse_registered_dialect_symbol(symbol, false)? {
            if attr_ty.is_some_and(|t| !matches!(self.ctx.type_kind(t), TypeKind::None)) {
                return Err(self.error_at(data_off, format!("'#{dialect}.{}' takes no type", data.mnemonic)));
            }
            return Ok(self.ctx.intern_attr(AttrKind::Dialect(Box::new(data))));
        }
        let data = self.ctx.registry().canonical_attr_body(&dialect, &data).unwrap_or(data);
        let pretty = is_simple_enough_for_pretty(&data);
        let (dialect, body) = (dialect.into(), data.into());
        // A `none` type is the same as no type.
        let kind = match attr_ty.filter(|&t| !matches!(self.ctx.type_kind(t), TypeKind::None)) {
            Some(ty) => AttrKind::TypedOpaque { dialect, body, pretty, ty },
            None => AttrKind::Opaque { dialect, body, pretty },
        };
        Ok(self.ctx.intern_attr(kind))
    }

    // ----- numbers ----------------------------------------------------------------------------

    /// `: type` if present, else `default`.
    fn parse_literal_type(&mut self, ty: Option<Type>, default: Type) -> PResult<Type> {
        if let Some(t) = ty {
            return Ok(t);
        }
        if self.consume_if(TokKind::Colon) { self.parse_type() } else { Ok(default) }
    }

    fn parse_dec_or_hex_attr(&mut self, ty: Option<Type>, negative: bool) -> PResult<Attr> {
        let tok = self.tok;
        let spelling = self.text(tok);
        self.advance();
        let ty = self.parse_literal_type(ty, self.ctx.i64_type())?;
        if let TypeKind::Float(k) = *self.ctx.type_kind(ty) {
            let bits = self.float_from_integer_literal(tok.start, spelling, negative, k)?;
            return Ok(self.ctx.intern_attr(AttrKind::Float { bits, ty }));
        }
        let (width, signedness) = match *self.ctx.type_kind(ty) {
            TypeKind::Integer { width, signedness } => (width, signedness),
            TypeKind::Index => (64, Signedness::Signed),
            _ => return Err(self.error_at(tok.start, "integer literal not valid for specified type")),
        };
        if negative && signedness == Signedness::Unsigned && !self.ctx.type_kind(ty).is_index() {
            return Err(self.error_at(tok.start, "negative integer literal not valid for unsigned integer type"));
        }
        match build_apint(spelling, width, signedness, negative) {
            Some(v) => Ok(self.int_attr(v, ty)),
            None => Err(self.error_at(tok.start, "integer constant out of range for attribute")),
        }
    }

    /// An integer attribute, as a `Bool` for `i1`.
    fn int_attr(&self, value: ApInt, ty: Type) -> Attr {
        if matches!(self.ctx.type_kind(ty), TypeKind::Integer { width: 1, signedness: Signedness::Signless }) {
            return self.ctx.bool_attr(!value.is_zero());
        }
        self.ctx.intern_attr(AttrKind::Integer { value, ty })
    }

    /// MLIR's `parseFloatFromIntegerLiteral`: a hex literal giving the raw bits.
    fn float_from_integer_literal(
        &mut self,
        at: usize,
        spelling: &[u8],
        negative: bool,
        k: FloatKind,
    ) -> PResult<u128> {
        let is_hex = spelling.len() > 1 && spelling[1] == b'x';
        if !is_hex {
            if self.diag.is_none() {
                let loc = self.loc_at(at);
                self.diag = Some(
                    crate::diag::Diagnostic::error(
                        loc,
                        "unexpected decimal integer literal for a floating point value",
                    )
                    .with_note(loc, "add a trailing dot to make the literal a float"),
                );
            }
            return Err(super::ParseFailure);
        }
        if negative {
            return Err(self.error_at(at, "hexadecimal float literal should not have a leading minus"));
        }
        let text = std::str::from_utf8(spelling).unwrap_or("");
        match ApInt::parse_unsigned(text, k.width()) {
            Some(v) => Ok(apint_low_u128(&v)),
            None => Err(self.error_at(at, "hexadecimal float constant out of range for type")),
        }
    }

    fn parse_float_attr(&mut self, ty: Option<Type>, negative: bool) -> PResult<Attr> {
        let Some(v) = parse_float_literal(self.tok_text()) else {
            return Err(self.error_here("floating point value too large for attribute"));
        };
        self.advance();
        let f64t = self.ctx.float_type(FloatKind::F64);
        let ty = self.parse_literal_type(ty, f64t)?;
        let TypeKind::Float(k) = *self.ctx.type_kind(ty) else {
            return Err(self.error_here("floating point value not valid for specified type"));
        };
        let v = if negative { -v } else { v };
        Ok(self.ctx.intern_attr(AttrKind::Float { bits: float_bits_from_f64(v, k), ty }))
    }

    // ----- dense elements ---------------------------------------------------------------------

    fn parse_dense_elements_attr(&mut self, ty: Option<Type>) -> PResult<Attr> {
        let kw_at = self.tok.start;
        self.advance();
        self.expect(TokKind::Less, "expected '<' after 'dense'")?;
        let mut lit = DenseLiteral::default();
        if !self.consume_if(TokKind::Greater) {
            self.parse_dense_literal(&mut lit)?;
            self.expect(TokKind::Greater, "expected '>'")?;
        }
        let loc = if ty.is_some() { kw_at } else { self.tok.start };
        let ty = match ty {
            Some(t) => t,
            None => {
                self.expect(TokKind::Colon, "expected ':'")?;
                self.parse_type()?
            }
        };
        let (shape, elem) = match self.ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, elem, .. } | TypeKind::Vector { shape, elem, .. } => (shape.clone(), *elem),
            TypeKind::MemRef { .. } | TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. } => {
                return Err(self.error_here("elements literal type must have static shape"));
            }
            _ => return Err(self.error_here("elements literal must be a shaped type")),
        };
        if shape.contains(&DYNAMIC) {
            return Err(self.error_here("elements literal type must have static shape"));
        }
        let data = self.dense_data(loc, ty, &shape, elem, &lit)?;
        Ok(self.ctx.intern_attr(AttrKind::DenseElements { ty, data }))
    }

    fn parse_dense_literal(&mut self, lit: &mut DenseLiteral) -> PResult<()> {
        if self.is(TokKind::String) {
            lit.hex = Some((self.tok.start, self.tok.end));
            self.advance();
            return Ok(());
        }
        if self.is(TokKind::LSquare) {
            let mut dims = Vec::new();
            self.parse_dense_list(lit, &mut dims)?;
            lit.shape = Some(dims);
            return Ok(());
        }
        self.parse_dense_element(lit)
    }

    fn parse_dense_element(&mut self, lit: &mut DenseLiteral) -> PResult<()> {
        match self.tok.kind {
            TokKind::Float | TokKind::Integer | TokKind::String => {
                lit.elems.push((false, self.tok.kind, self.tok.start, self.tok.end));
                self.advance();
            }
            TokKind::BareIdent if matches!(self.tok_text(), b"true" | b"false") => {
                lit.elems.push((false, self.tok.kind, self.tok.start, self.tok.end));
                self.advance();
            }
            TokKind::Minus => {
                self.advance();
                if !matches!(self.tok.kind, TokKind::Float | TokKind::Integer) {
                    return Err(self.error_here("expected integer or floating point literal"));
                }
                lit.elems.push((true, self.tok.kind, self.tok.start, self.tok.end));
                self.advance();
            }
            TokKind::LParen => {
                self.advance();
                self.parse_dense_element(lit)?;
                self.expect(TokKind::Comma, "expected ',' between complex elements")?;
                self.parse_dense_element(lit)?;
                self.expect(TokKind::RParen, "expected ')' after complex elements")?;
            }
            _ => return Err(self.error_here("expected element literal of primitive type")),
        }
        Ok(())
    }

    /// A nested list; `dims` receives its shape.
    fn parse_dense_list(&mut self, lit: &mut DenseLiteral, dims: &mut Vec<i64>) -> PResult<()> {
        self.enter_nesting()?;
        self.advance(); // '['
        let mut size = 0i64;
        let mut first: Option<Vec<i64>> = None;
        if !self.consume_if(TokKind::RSquare) {
            loop {
                let mut this = Vec::new();
                if self.is(TokKind::LSquare) {
                    self.parse_dense_list(lit, &mut this)?;
                } else {
                    self.parse_dense_element(lit)?;
                }
                size += 1;
                match &first {
                    None => first = Some(this),
                    Some(f) if *f != this => {
                        return Err(
                            self.error_here("tensor literal is invalid; ranks are not consistent between elements")
                        );
                    }
                    _ => {}
                }
                if !self.consume_if(TokKind::Comma) {
                    break;
                }
            }
            self.expect(TokKind::RSquare, "expected ',' or ']'")?;
        }
        self.leave_nesting();
        dims.clear();
        dims.push(size);
        dims.extend(first.unwrap_or_default());
        Ok(())
    }

    fn dense_data(
        &mut self,
        loc: usize,
        ty: Type,
        shape: &[i64],
        elem: Type,
        lit: &DenseLiteral,
    ) -> PResult<DenseData> {
        let elem_kind = self.ctx.type_kind(elem).clone();
        let (scalar, is_complex) = match elem_kind {
            TypeKind::Complex(s) => (s, true),
            _ => (elem, false),
        };
        let scalar_kind = self.ctx.type_kind(scalar).clone();
        if let Some((s, e)) = lit.hex {
            let is_num = matches!(scalar_kind, TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_));
            if is_num {
                return self.dense_hex(loc, s, e, ty, shape, elem, scalar, is_complex);
            }
        }
        let count: Option<i64> = shape.iter().try_fold(1i64, |a, &d| a.checked_mul(d));
        if let Some(lit_shape) = lit.shape.as_ref().filter(|s| s.as_slice() != shape) {
            {
                let msg = format!(
                    "inferred shape of elements literal ([{}]) does not match type ([{}])",
                    join_dims(lit_shape),
                    join_dims(shape)
                );
                return Err(self.error_at(loc, msg));
            }
        }
        if lit.hex.is_none() && lit.elems.is_empty() && count != Some(0) {
            let msg = format!(
                "parsed zero elements, but type ('{}') expected at least 1",
                super::display::type_to_string(self.ctx, ty)
            );
            return Err(self.error_at(loc, msg));
        }
        let mut scalars = Vec::with_capacity(lit.elems.len());
        for &(neg, kind, s, e) in &lit.elems {
            let a = self.dense_scalar(neg, kind, s, e, scalar, &scalar_kind)?;
            scalars.push(a);
        }
        if let Some((s, e)) = lit.hex {
            // A lone string for a non-numeric element type is a splat string element.
            scalars.push(self.dense_scalar(false, TokKind::String, s, e, scalar, &scalar_kind)?);
        }
        let elems: Vec<Attr> =
            if is_complex { scalars.chunks(2).map(|c| self.ctx.array_attr(c.to_vec())).collect() } else { scalars };
        Ok(splat_or_elements(elems))
    }

    fn dense_scalar(
        &mut self,
        neg: bool,
        kind: TokKind,
        s: usize,
        e: usize,
        scalar: Type,
        sk: &TypeKind,
    ) -> PResult<Attr> {
        let spelling = &self.src[s..e];
        match *sk {
            TypeKind::Integer { .. } | TypeKind::Index => {
                let (width, signedness) = match *sk {
                    TypeKind::Integer { width, signedness } => (width, signedness),
                    _ => (64, Signedness::Signed),
                };
                if neg && signedness == Signedness::Unsigned && !sk.is_index() {
                    return Err(self.error_at(s, "expected unsigned integer elements, but parsed negative value"));
                }
                match kind {
                    TokKind::Float => Err(self.error_at(s, "expected integer elements, but parsed floating-point")),
                    TokKind::BareIdent => {
                        // Any 1-bit integer type (i1, si1, ui1) takes `true`/`false`.
                        if width != 1 || sk.is_index() {
                            return Err(self.error_at(s, "expected i1 type for 'true' or 'false' values"));
                        }
                        Ok(self.int_attr(ApInt::from_u128(1, (spelling == b"true") as u128), scalar))
                    }
                    TokKind::Integer => match build_apint(spelling, width, signedness, neg) {
                        Some(v) => Ok(self.int_attr(v, scalar)),
                        None => Err(self.error_at(s, "integer constant out of range for type")),
                    },
                    _ => Err(self.error_at(s, "expected integer elements, but parsed string")),
                }
            }
            TypeKind::Float(k) => {
                if kind == TokKind::Integer && spelling.starts_with(b"0x") {
                    let bits = self.float_from_integer_literal(s, spelling, neg, k)?;
                    return Ok(self.ctx.intern_attr(AttrKind::Float { bits, ty: scalar }));
                }
                if kind != TokKind::Float {
                    return Err(self.error_here("expected floating-point elements, but parsed integer"));
                }
                let Some(v) = parse_float_literal(spelling) else {
                    return Err(self.error_here("floating point value too large for attribute"));
                };
                let v = if neg { -v } else { v };
                Ok(self.ctx.intern_attr(AttrKind::Float { bits: float_bits_from_f64(v, k), ty: scalar }))
            }
            _ => {
                if kind != TokKind::String {
                    return Err(self.error_at(s, "expected string element for non-numeric element type"));
                }
                let value = string_value(spelling);
                Ok(self.ctx.intern_attr(AttrKind::String { value: value.into(), ty: None }))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn dense_hex(
        &mut self,
        loc: usize,
        s: usize,
        e: usize,
        ty: Type,
        shape: &[i64],
        elem: Type,
        scalar: Type,
        is_complex: bool,
    ) -> PResult<DenseData> {
        let raw = string_value(&self.src[s..e]);
        let Some(bytes) = decode_hex(&raw) else {
            return Err(self.error_at(s, "expected string containing hex digits starting with `0x`"));
        };
        let bits = self.ctx.type_kind(scalar).int_or_float_width().unwrap_or(8);
        let count = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d as usize));
        if bits == 1 && !is_complex {
            return match unpack_bool_hex(&bytes, count) {
                Some(values) => {
                    let elems =
                        values.into_iter().map(|b| self.int_attr(ApInt::from_u128(1, b as u128), scalar)).collect();
                    Ok(splat_or_elements(elems))
                }
                None => {
                    let msg = format!(
                        "elements hex data size is invalid for provided type: '{}'",
                        super::display::type_to_string(self.ctx, ty)
                    );
                    Err(self.error_at(loc, msg))
                }
            };
        }
        let byte_width = if bits == 1 { 1 } else { (bits as usize).div_ceil(8) };
        let per_elem = byte_width * if is_complex { 2 } else { 1 };
        let ok = bytes.len() == per_elem || Some(bytes.len()) == count.and_then(|c| c.checked_mul(per_elem));
        if !ok {
            let msg = format!(
                "elements hex data size is invalid for provided type: '{}'",
                super::display::type_to_string(self.ctx, ty)
            );
            return Err(self.error_at(loc, msg));
        }
        let decodable = bits == 1 || bits.is_multiple_of(8);
        if !decodable || bits > 128 {
            let text = String::from_utf8_lossy(&raw[2..]).into_owned();
            return Ok(DenseData::Hex(text.into()));
        }
        let mut scalars = Vec::with_capacity(bytes.len() / byte_width.max(1));
        for chunk in bytes.chunks(byte_width) {
            let mut v: u128 = 0;
            for (i, b) in chunk.iter().enumerate() {
                v |= (*b as u128) << (8 * i);
            }
            let a = match self.ctx.type_kind(scalar) {
                TypeKind::Float(_) => self.ctx.intern_attr(AttrKind::Float { bits: v, ty: scalar }),
                _ => {
                    let w = if bits == 1 { 1 } else { bits };
                    self.int_attr(ApInt::from_u128(w, v), scalar)
                }
            };
            scalars.push(a);
        }
        let _ = elem;
        let elems: Vec<Attr> =
            if is_complex { scalars.chunks(2).map(|c| self.ctx.array_attr(c.to_vec())).collect() } else { scalars };
        Ok(splat_or_elements(elems))
    }

    // ----- array<...> -------------------------------------------------------------------------

    fn parse_dense_array_attr(&mut self) -> PResult<Attr> {
        self.advance();
        self.expect(TokKind::Less, "expected '<' after 'array'")?;
        let ty_at = self.tok.start;
        let elem = self.parse_type()?;
        let kind = self.ctx.type_kind(elem).clone();
        let width = match kind {
            TypeKind::Integer { width, .. } => width,
            TypeKind::Index => 64,
            TypeKind::Float(k) => k.width(),
            _ => {
                let msg = format!(
                    "expected integer or float type, got: '{}'",
                    super::display::type_to_string(self.ctx, elem)
                );
                return Err(self.error_at(ty_at, msg));
            }
        };
        if width != 1 && width % 8 != 0 {
            return Err(self.error_at(ty_at, "element type bitwidth must be a multiple of 8"));
        }
        let is_float = matches!(kind, TypeKind::Float(_));
        let mut ints = Vec::new();
        let mut floats = Vec::new();
        if !self.consume_if(TokKind::Greater) {
            self.expect(TokKind::Colon, "expected ':' after dense array type")?;
            loop {
                if is_float {
                    floats.push(self.parse_dense_array_float(&kind)?);
                } else {
                    ints.push(self.parse_dense_array_int(&kind, elem)?);
                }
                if !self.consume_if(TokKind::Comma) {
                    break;
                }
            }
            self.expect(TokKind::Greater, "expected '>' to close an array attribute")?;
        }
        let data = match (is_float, width > 64) {
            (true, false) => DenseArrayData::Float(floats.into_iter().map(|b| b as u64).collect()),
            (true, true) => DenseArrayData::WideFloat(floats),
            (false, false) => {
                let unsigned = matches!(kind, TypeKind::Integer { signedness: Signedness::Unsigned, .. });
                DenseArrayData::Int(ints.iter().map(|v| narrow_dense_array_int(v, unsigned)).collect())
            }
            (false, true) => DenseArrayData::WideInt(ints),
        };
        Ok(self.ctx.intern_attr(AttrKind::DenseArray { elem, data }))
    }

    /// One integer of an `array<iN: ...>` at the element type's width (`i1` as 0/1).
    fn parse_dense_array_int(&mut self, kind: &TypeKind, _elem: Type) -> PResult<ApInt> {
        let negative = self.consume_if(TokKind::Minus);
        let (width, signedness) = match *kind {
            TypeKind::Integer { width, signedness } => (width, signedness),
            _ => (64, Signedness::Signed),
        };
        if self.is_kw("true") || self.is_kw("false") {
            if width != 1 {
                return Err(self.error_here("expected i1 type for 'true' or 'false' values"));
            }
            let v = ApInt::from_u128(1, self.is_kw("true") as u128);
            self.advance();
            return Ok(v);
        }
        if !self.is(TokKind::Integer) {
            return Err(self.error_here("expected integer literal"));
        }
        let spelling = self.tok_text();
        self.advance();
        match build_apint(spelling, width, signedness, negative) {
            Some(v) => Ok(v),
            None => Err(self.error_here("integer constant out of range")),
        }
    }

    /// One float of an `array<fN: ...>` as raw bits.
    fn parse_dense_array_float(&mut self, kind: &TypeKind) -> PResult<u128> {
        let negative = self.consume_if(TokKind::Minus);
        let TypeKind::Float(k) = *kind else { return Err(self.error_here("expected float type")) };
        let tok = self.tok;
        match tok.kind {
            TokKind::Integer => {
                self.advance();
                self.float_from_integer_literal(tok.start, self.text(tok), negative, k)
            }
            TokKind::Float => {
                let Some(v) = parse_float_literal(self.text(tok)) else {
                    return Err(self.error_here("floating point value too large for attribute"));
                };
                self.advance();
                let v = if negative { -v } else { v };
                Ok(float_bits_from_f64(v, k))
            }
            _ => Err(self.error_here("expected integer or floating point literal")),
        }
    }

    // ----- sparse ------------------------------------------------------------------------------

    /// `sparse<indices, values> : type` or `sparse<> : type`, checked as MLIR's
    /// `SparseElementsAttr::verify` (errors at the `sparse` keyword).
    fn parse_sparse_attr(&mut self) -> PResult<Attr> {
        let kw_at = self.tok.start;
        self.advance();
        self.expect(TokKind::Less, "expected '<' after 'sparse'")?;
        let lits = if self.consume_if(TokKind::Greater) {
            None
        } else {
            let iloc = self.tok.start;
            let mut ilit = DenseLiteral::default();
            self.parse_dense_literal(&mut ilit)?;
            self.expect(TokKind::Comma, "expected ','")?;
            let vloc = self.tok.start;
            let mut vlit = DenseLiteral::default();
            self.parse_dense_literal(&mut vlit)?;
            self.expect(TokKind::Greater, "expected '>'")?;
            Some((iloc, ilit, vloc, vlit))
        };
        self.expect(TokKind::Colon, "expected ':'")?;
        let ty = self.parse_type()?;
        let (shape, elem) = match self.ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, elem, .. } | TypeKind::Vector { shape, elem, .. } => (shape.clone(), *elem),
            TypeKind::MemRef { .. } | TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. } => {
                return Err(self.error_here("elements literal type must have static shape"));
            }
            _ => return Err(self.error_here("elements literal must be a shaped type")),
        };
        let rank = shape.len() as i64;
        let i64t = self.ctx.i64_type();
        let Some((iloc, ilit, vloc, vlit)) = lits else {
            let indices_ty = self.ctx.tensor_type(vec![0, rank], i64t, None);
            let values_ty = self.ctx.tensor_type(vec![0], elem, None);
            let indices =
                self.ctx.intern_attr(AttrKind::DenseElements { ty: indices_ty, data: DenseData::Elements(vec![]) });
            let values =
                self.ctx.intern_attr(AttrKind::DenseElements { ty: values_ty, data: DenseData::Elements(vec![]) });
            return Ok(self.ctx.intern_attr(AttrKind::Sparse { ty, indices, values }));
        };
        let ishape = ilit.shape.clone().unwrap_or_else(|| vec![1, rank]);
        let indices_ty = self.ctx.tensor_type(ishape.clone(), i64t, None);
        let idata = self.dense_data(iloc, indices_ty, &ishape, i64t, &ilit)?;
        let vshape = vlit.shape.clone().unwrap_or_else(|| vec![ishape.first().copied().unwrap_or(0)]);
        let values_ty = self.ctx.tensor_type(vshape.clone(), elem, None);
        let vdata = self.dense_data(vloc, values_ty, &vshape, elem, &vlit)?;
        if vshape.len() != 1 {
            return Err(self.error_at(kw_at, "expected 1-d tensor for sparse element values"));
        }
        let shape_ok = match ishape.len() {
            2 => ishape[1] == rank,
            1 => rank == 1,
            _ => false,
        };
        if !shape_ok || ishape[0] != vshape[0] {
            let msg = format!(
                "expected shape ([{}]); inferred shape of indices literal ([{}]); inferred shape of values literal ([{}])",
                join_dims(&shape),
                join_dims(&ishape),
                join_dims(&vshape)
            );
            return Err(self.error_at(kw_at, msg));
        }
        let index_values: Vec<u64> = match &idata {
            DenseData::Splat(a) => vec![self.attr_u64(*a); rank as usize],
            DenseData::Elements(es) => es.iter().map(|&a| self.attr_u64(a)).collect(),
            DenseData::Hex(_) => Vec::new(),
        };
        let per = rank.max(1) as usize;
        let count = if matches!(idata, DenseData::Splat(_)) { 1 } else { ishape[0] as usize };
        for i in 0..count {
            let index = if matches!(idata, DenseData::Splat(_)) {
                index_values.clone()
            } else {
                index_values.get(i * per..i * per + rank as usize).map(<[u64]>::to_vec).unwrap_or_default()
            };
            let valid = index.len() == shape.len() && index.iter().zip(&shape).all(|(&x, &d)| (x as i128) < d as i128);
            if !valid {
                let msg = format!(
                    "sparse index #{i} is not contained within the value shape, with index=[{}], and type='{}'",
                    index.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "),
                    super::display::type_to_string(self.ctx, ty)
                );
                return Err(self.error_at(kw_at, msg));
            }
        }
        let indices = self.ctx.intern_attr(AttrKind::DenseElements { ty: indices_ty, data: idata });
        let values = self.ctx.intern_attr(AttrKind::DenseElements { ty: values_ty, data: vdata });
        Ok(self.ctx.intern_attr(AttrKind::Sparse { ty, indices, values }))
    }

    /// An integer element as MLIR's `getValues<uint64_t>` reads it.
    fn attr_u64(&self, a: Attr) -> u64 {
        match self.ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => value.to_i128().map(|v| v as u64).unwrap_or(u64::MAX),
            _ => 0,
        }
    }

    // ----- dense_resource ----------------------------------------------------------------------

    /// `dense_resource<name> : shaped-type`.
    fn parse_dense_resource_attr(&mut self) -> PResult<Attr> {
        self.advance();
        self.expect(TokKind::Less, "expected '<' after 'dense_resource'")?;
        let name = match self.tok.kind {
            TokKind::BareIdent => self.str_of(self.tok_text()),
            TokKind::String => String::from_utf8_lossy(&string_value(self.tok_text())).into_owned(),
            _ => return Err(self.wrong_token("expected identifier key for 'resource' entry")),
        };
        self.advance();
        self.expect(TokKind::Greater, "expected '>'")?;
        let at = self.tok.start;
        self.expect(TokKind::Colon, "expected ':'")?;
        let ty = self.parse_type()?;
        if self.ctx.type_kind(ty).shape().is_none() {
            return Err(self.error_at(at, "`dense_resource` expected a shaped type"));
        }
        Ok(self.ctx.intern_attr(AttrKind::DenseResource { name: name.into(), ty }))
    }

    // ----- distinct ----------------------------------------------------------------------------

    /// `distinct[id]<attr>` or `distinct[id]<>` (a unit inner attribute). One parse gives one
    /// attribute per id; reusing an id with another inner attribute is an error.
    fn parse_distinct_attr(&mut self) -> PResult<Attr> {
        let start = self.tok.start;
        self.advance();
        self.expect(TokKind::LSquare, "expected '[' after 'distinct'")?;
        if !self.is(TokKind::Integer) {
            return Err(self.wrong_token("expected distinct ID"));
        }
        let id = super::lexer::parse_u64_literal(&self.str_of(self.tok_text()));
        self.advance();
        let Some(id) = id else { return Err(self.wrong_token("expected an unsigned 64-bit integer")) };
        self.expect(TokKind::RSquare, "expected ']' to close distinct ID")?;
        self.expect(TokKind::Less, "expected '<' after distinct ID")?;
        let inner = if self.consume_if(TokKind::Greater) {
            self.ctx.unit_attr()
        } else {
            let Ok(inner) = self.parse_attribute(None) else {
                let at = self.tok.start;
                return Err(self.error_also(at, "expected attribute"));
            };
            self.expect(TokKind::Greater, "expected '>' to close distinct attribute")?;
            inner
        };
        match self.distinct_defs.get(&id) {
            Some(&prev) if prev != inner => {
                let msg = format!(
                    "referenced attribute does not match previous definition: {}",
                    crate::printer::print_attr(self.ctx, prev)
                );
                Err(self.error_at(start, msg))
            }
            _ => {
                self.distinct_defs.insert(id, inner);
                Ok(self.ctx.intern_attr(AttrKind::Distinct { id, inner }))
            }
        }
    }

    // ----- strided, affine --------------------------------------------------------------------

    fn parse_strided_attr(&mut self) -> PResult<Attr> {
        let keyword_at = self.tok.start;
        self.advance();
        self.expect(TokKind::Less, "expected '<' after 'strided'")?;
        self.expect(TokKind::LSquare, "expected '['")?;
        let mut strides = Vec::new();
        if !self.is(TokKind::RSquare) {
            loop {
                strides.push(self.parse_stride_or_offset()?);
                if !self.consume_if(TokKind::Comma) {
                    break;
                }
            }
        }
        self.expect(TokKind::RSquare, "expected ']'")?;
        let mut offset = 0;
        if !self.consume_if(TokKind::Greater) {
            self.expect(TokKind::Comma, "expected ','")?;
            if !self.consume_kw("offset") {
                return Err(self.wrong_token("expected 'offset' after comma"));
            }
            self.expect(TokKind::Colon, "expected ':' after 'offset'")?;
            offset = self.parse_stride_or_offset()?;
            self.expect(TokKind::Greater, "expected '>'")?;
        }
        // MLIR's `StridedLayoutAttr::verify`, reported at the keyword.
        if strides.contains(&0) {
            return Err(self.error_at(keyword_at, "strides must not be zero"));
        }
        Ok(self.ctx.intern_attr(AttrKind::Strided { strides, offset }))
    }

    fn parse_stride_or_offset(&mut self) -> PResult<i64> {
        if self.consume_if(TokKind::Question) {
            return Ok(DYNAMIC);
        }
        let at = self.tok.start;
        let negative = self.consume_if(TokKind::Minus);
        if self.is(TokKind::Integer) {
            let v = std::str::from_utf8(self.tok_text()).ok().and_then(|s| s.parse::<u64>().ok());
            if let Some(v) = v.filter(|v| *v <= i64::MAX as u64) {
                self.advance();
                return Ok(if negative { -(v as i64) } else { v as i64 });
            }
        }
        Err(self.error_at(at, "expected a 64-bit signed integer or '?'"))
    }

    /// `affine_map<...>` / `affine_set<...>`: parsed for validity, stored normalized.
    fn parse_affine_attr(&mut self, is_map: bool) -> PResult<Attr> {
        self.advance();
        let what = if is_map { "expected '<' in affine map" } else { "expected '<' in integer set" };
        self.expect(TokKind::Less, what)?;
        let (text, key) = self.parse_affine_body(is_map)?;
        let what = if is_map { "expected '>' in affine map" } else { "expected '>' in integer set" };
        self.expect(TokKind::Greater, what)?;
        Ok(self.ctx.intern_attr(if is_map {
            AttrKind::AffineMap(text.into(), key.map(Into::into))
        } else {
            AttrKind::IntegerSet(text.into(), key.map(Into::into))
        }))
    }

    // ----- locations --------------------------------------------------------------------------

    /// `location-inst` (the part inside `loc(...)`).
    pub(crate) fn parse_location_instance(&mut self) -> PResult<Attr> {
        self.nested(|p| p.parse_location_instance_inner())
    }

    fn parse_location_instance_inner(&mut self) -> PResult<Attr> {
        if self.is(TokKind::HashIdent) {
            let a = self.parse_extended_attr(None)?;
            if !self.ctx.attr_kind(a).is_location() {
                let msg =
                    format!("expected location attribute, but got{}", super::display::attr_to_string(self.ctx, a));
                return Err(self.error_here(msg));
            }
            return Ok(a);
        }
        if self.is(TokKind::String) {
            return self.parse_name_or_file_line_col();
        }
        if !self.is(TokKind::BareIdent) {
            return Err(self.wrong_token("expected location instance"));
        }
        match self.tok_text() {
            b"callsite" => {
                self.advance();
                self.expect(TokKind::LParen, "expected '(' in callsite location")?;
                let callee = self.parse_location_instance()?;
                if !self.is_kw("at") {
                    return Err(self.wrong_token("expected 'at' in callsite location"));
                }
                self.advance();
                let caller = self.parse_location_instance()?;
                self.expect(TokKind::RParen, "expected ')' in callsite location")?;
                Ok(self.ctx.intern_attr(AttrKind::CallSiteLoc { callee, caller }))
            }
            b"fused" => {
                self.advance();
                let mut metadata = None;
                if self.consume_if(TokKind::Less) {
                    metadata = Some(self.parse_attribute(None)?);
                    self.expect(TokKind::Greater, "expected '>' after fused location metadata")?;
                }
                self.expect(TokKind::LSquare, "expected '[' in fused location")?;
                let mut locs = Vec::new();
                if !self.consume_if(TokKind::RSquare) {
                    loop {
                        locs.push(self.parse_location_instance()?);
                        if !self.consume_if(TokKind::Comma) {
                            break;
                        }
                    }
                    self.expect(TokKind::RSquare, "expected ']' in fused location")?;
                }
                Ok(self.fused_loc(locs, metadata))
            }
            b"unknown" => {
                self.advance();
                Ok(self.ctx.unknown_loc())
            }
            _ => Err(self.wrong_token("expected location instance")),
        }
    }

    /// MLIR's `FusedLoc::get`: flattens fused children with the same metadata, drops unknown
    /// locations and duplicates, and collapses trivial cases.
    fn fused_loc(&self, locs: Vec<Attr>, metadata: Option<Attr>) -> Attr {
        let mut out: Vec<Attr> = Vec::new();
        let push = |a: Attr, out: &mut Vec<Attr>| {
            if !out.contains(&a) {
                out.push(a);
            }
        };
        for l in locs {
            match self.ctx.attr_kind(l) {
                AttrKind::FusedLoc { locs: inner, metadata: m } if *m == metadata => {
                    for &i in inner {
                        push(i, &mut out);
                    }
                }
                AttrKind::UnknownLoc => {}
                _ => push(l, &mut out),
            }
        }
        if out.is_empty() {
            return match metadata {
                None => self.ctx.unknown_loc(),
                Some(m) => {
                    self.ctx.intern_attr(AttrKind::FusedLoc { locs: vec![self.ctx.unknown_loc()], metadata: Some(m) })
                }
            };
        }
        if out.len() == 1 && metadata.is_none() {
            return out[0];
        }
        self.ctx.intern_attr(AttrKind::FusedLoc { locs: out, metadata })
    }

    fn parse_name_or_file_line_col(&mut self) -> PResult<Attr> {
        let s = String::from_utf8_lossy(&string_value(self.tok_text())).into_owned();
        self.advance();
        if self.consume_if(TokKind::Colon) {
            let line = self.parse_loc_number("expected integer line number in FileLineColLoc")?;
            self.expect(TokKind::Colon, "expected ':' in FileLineColLoc")?;
            let col = self.parse_loc_number("expected integer column number in FileLineColLoc")?;
            // MLIR names a file location without a file name "-" (as for standard input).
            let file = if s.is_empty() { "-" } else { s.as_str() };
            return Ok(self.ctx.file_loc(file, line, col));
        }
        let name = self.ctx.ident(&s);
        if self.consume_if(TokKind::LParen) {
            let child = self.parse_location_instance()?;
            self.expect(TokKind::RParen, "expected ')' after child location of NameLoc")?;
            // An unknown child is the same location as no child (MLIR's default child).
            let child = Some(child).filter(|&c| c != self.ctx.unknown_loc());
            return Ok(self.ctx.intern_attr(AttrKind::NameLoc { name, child }));
        }
        Ok(self.ctx.intern_attr(AttrKind::NameLoc { name, child: None }))
    }

    fn parse_loc_number(&mut self, msg: &str) -> PResult<u32> {
        if !self.is(TokKind::Integer) {
            return Err(self.wrong_token(msg));
        }
        let v =
            std::str::from_utf8(self.tok_text()).ok().and_then(parse_u64_literal).and_then(|v| u32::try_from(v).ok());
        match v {
            Some(v) => {
                self.advance();
                Ok(v)
            }
            None => Err(self.wrong_token(msg)),
        }
    }
}

/// The parsed pieces of a dense literal, kept as token ranges until the type is known.
#[derive(Default)]
struct DenseLiteral {
    /// `(negative, kind, start, end)` per scalar (complex values contribute two).
    elems: Vec<(bool, TokKind, usize, usize)>,
    /// Shape of a bracketed literal; `None` for a single (splat) element.
    shape: Option<Vec<i64>>,
    /// Byte range of a `"0x..."` string.
    hex: Option<(usize, usize)>,
}

/// An element of an `array<...>` of at most 64 bits as stored in [`DenseArrayData::Int`]:
/// sign-extended for signed and signless types, zero-extended (then reinterpreted) for
/// unsigned ones, 0/1 for 1-bit types.
fn narrow_dense_array_int(v: &ApInt, unsigned: bool) -> i64 {
    if v.width() == 1 {
        return !v.is_zero() as i64;
    }
    let value = if unsigned { v.to_u64().map(|u| u as i64) } else { v.to_i64() };
    value.unwrap_or(0)
}

fn join_dims(d: &[i64]) -> String {
    d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

fn splat_or_elements(elems: Vec<Attr>) -> DenseData {
    match elems.first() {
        Some(&first) if elems.iter().all(|&e| e == first) => DenseData::Splat(first),
        _ => DenseData::Elements(elems),
    }
}

/// The elements of a 1-bit dense hex payload: one byte `0x00`/`0xFF` is a splat; otherwise
/// the bytes hold one bit per element, least significant bit first, and must be exactly
/// `ceil(count / 8)` bytes long. `None` when the size fits neither form.
fn unpack_bool_hex(bytes: &[u8], count: Option<usize>) -> Option<Vec<bool>> {
    if let [b @ (0x00 | 0xFF)] = bytes {
        return Some(vec![*b != 0]);
    }
    let count = count?;
    if bytes.len() != count.div_ceil(8) {
        return None;
    }
    Some((0..count).map(|i| bytes[i / 8] >> (i % 8) & 1 == 1).collect())
}

fn decode_hex(raw: &[u8]) -> Option<Vec<u8>> {
    let h = raw.strip_prefix(b"0x")?;
    if h.len() % 2 != 0 {
        return None;
    }
    h.chunks(2)
        .map(|c| {
            let s = std::str::from_utf8(c).ok()?;
            u8::from_str_radix(s, 16).ok()
        })
        .collect()
}

/// The raw bits of a value of at most 128 bits.
fn apint_low_u128(v: &ApInt) -> u128 {
    v.zext_or_trunc(128).to_i128().map_or(0, |x| x as u128)
}

/// MLIR's `buildAttributeAPInt`: the literal in `width` bits, or `None` when out of range.
pub(super) fn build_apint(spelling: &[u8], width: u32, signedness: Signedness, negative: bool) -> Option<ApInt> {
    let text = std::str::from_utf8(spelling).ok()?;
    let v = ApInt::parse_unsigned(text, width)?;
    if width == 0 {
        return if negative { None } else { Some(v) };
    }
    if negative {
        let n = v.negate();
        return n.is_negative().then_some(n);
    }
    if signedness == Signedness::Signed && v.is_negative() {
        return None;
    }
    Some(v)
}

pub(super) use super::affine::affine_map_shape;
