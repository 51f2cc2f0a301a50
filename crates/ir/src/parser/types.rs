//! The type grammar: builtin types (integers, index, floats, none, complex, tuple, function,
//! tensor, vector, memref), opaque dialect types `!dialect.body` / `!dialect<body>` and type
//! aliases `!name`. Checks and messages follow mlir-opt-19.
//!
//! Repeated type spellings are parsed once: a type whose extent can be found by a cheap
//! bracket scan is looked up by its exact source text, and the text of every successful parse
//! that consumed exactly that extent is remembered (aliases never change once defined, so
//! equal text always means the same type).

use super::lexer::TokKind;
use super::{PResult, Parser};
use crate::attrs::{Attr, AttrKind};
use crate::types::{DYNAMIC, FloatKind, Signedness, Type, TypeKind};

/// MLIR's `IntegerType::kMaxWidth`.
const MAX_INT_WIDTH: u64 = (1 << 24) - 1;

impl<'a> Parser<'a> {
    /// `type ::= function-type | non-function-type`.
    pub(crate) fn parse_type(&mut self) -> PResult<Type> {
        if !self.is(TokKind::LParen) {
            return self.parse_non_function_type();
        }
        let start = self.tok.start;
        if let Some((end, t)) = self.type_cache.lookup(self.src, start) {
            self.reset_to(end);
            return Ok(t);
        }
        let t = self.parse_function_type()?;
        self.type_cache.insert(self.src, start, self.prev_end, t);
        Ok(t)
    }

    /// True if the current token can start a type.
    pub(crate) fn at_type_start(&self) -> bool {
        match self.tok.kind {
            TokKind::LParen | TokKind::IntType | TokKind::BangIdent => true,
            TokKind::BareIdent => {
                let s = self.tok_text();
                matches!(s, b"memref" | b"tensor" | b"complex" | b"tuple" | b"vector" | b"index" | b"none")
                    || std::str::from_utf8(s).ok().and_then(FloatKind::from_keyword).is_some()
            }
            _ => false,
        }
    }

    pub(crate) fn parse_optional_type(&mut self) -> PResult<Option<Type>> {
        if self.at_type_start() { self.parse_type().map(Some) } else { Ok(None) }
    }

    fn parse_function_type(&mut self) -> PResult<Type> {
        self.enter_nesting()?;
        let inputs = self.parse_type_list_parens()?;
        self.expect(TokKind::Arrow, "expected '->' in function type")?;
        let results = self.parse_function_result_types()?;
        self.leave_nesting();
        Ok(self.ctx.function_type(inputs, results))
    }

    /// `type-list-parens ::= '(' ')' | '(' type (',' type)* ')'`.
    pub(crate) fn parse_type_list_parens(&mut self) -> PResult<Vec<Type>> {
        self.expect(TokKind::LParen, "expected '('")?;
        let mut out = Vec::new();
        if self.consume_if(TokKind::RParen) {
            return Ok(out);
        }
        self.parse_type_list_no_parens(&mut out)?;
        self.expect(TokKind::RParen, "expected ')'")?;
        Ok(out)
    }

    pub(crate) fn parse_type_list_no_parens(&mut self, out: &mut Vec<Type>) -> PResult<()> {
        loop {
            out.push(self.parse_type()?);
            if !self.consume_if(TokKind::Comma) {
                return Ok(());
            }
        }
    }

    /// `function-result-types ::= type-list-parens | non-function-type`.
    pub(crate) fn parse_function_result_types(&mut self) -> PResult<Vec<Type>> {
        if self.is(TokKind::LParen) {
            return self.parse_type_list_parens();
        }
        Ok(vec![self.parse_non_function_type()?])
    }

    pub(crate) fn parse_non_function_type(&mut self) -> PResult<Type> {
        let start = self.tok.start;
        let cacheable = matches!(self.tok.kind, TokKind::BareIdent | TokKind::BangIdent)
            && self.src.get(self.tok.end) == Some(&b'<');
        if let Some((end, t)) = cacheable.then(|| self.type_cache.lookup(self.src, start)).flatten() {
            self.reset_to(end);
            return Ok(t);
        }
        let t = self.parse_non_function_type_uncached()?;
        if cacheable {
            self.type_cache.insert(self.src, start, self.prev_end, t);
        }
        Ok(t)
    }

    fn parse_non_function_type_uncached(&mut self) -> PResult<Type> {
        match self.tok.kind {
            TokKind::IntType => self.parse_integer_type(),
            TokKind::BangIdent => self.parse_extended_type(),
            TokKind::BareIdent => {
                let kw = self.tok_text();
                match kw {
                    b"tensor" => self.nested(|p| p.parse_tensor_type()),
                    b"memref" => self.nested(|p| p.parse_memref_type()),
                    b"vector" => self.nested(|p| p.parse_vector_type()),
                    b"complex" => self.nested(|p| p.parse_complex_type()),
                    b"tuple" => self.nested(|p| p.parse_tuple_type()),
                    b"index" => {
                        self.advance();
                        Ok(self.ctx.index_type())
                    }
                    b"none" => {
                        self.advance();
                        Ok(self.ctx.none_type())
                    }
                    _ => match std::str::from_utf8(kw).ok().and_then(FloatKind::from_keyword) {
                        Some(k) => {
                            self.advance();
                            Ok(self.ctx.float_type(k))
                        }
                        None => Err(self.wrong_token("expected non-function type")),
                    },
                }
            }
            _ => Err(self.wrong_token("expected non-function type")),
        }
    }

    /// Runs `f` one nesting level deeper.
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter_nesting()?;
        let r = f(self);
        self.leave_nesting();
        r
    }

    fn parse_integer_type(&mut self) -> PResult<Type> {
        let s = self.tok_text();
        let (signedness, digits) = match s[0] {
            b's' => (Signedness::Signed, &s[2..]),
            b'u' => (Signedness::Unsigned, &s[2..]),
            _ => (Signedness::Signless, &s[1..]),
        };
        let width = std::str::from_utf8(digits).ok().and_then(|d| d.parse::<u32>().ok());
        let Some(width) = width else { return Err(self.error_here("invalid integer width")) };
        if width as u64 > MAX_INT_WIDTH {
            return Err(self.error_here(format!("integer bitwidth is limited to {MAX_INT_WIDTH} bits")));
        }
        self.advance();
        Ok(self.ctx.intern_type(TypeKind::Integer { width, signedness }))
    }

    /// Consumes an `x` (or the `x` prefix of an identifier like `xf32`) in a dimension list.
    fn parse_x_in_dimension_list(&mut self) -> PResult<()> {
        if !self.is(TokKind::BareIdent) || self.tok_text()[0] != b'x' {
            return Err(self.wrong_token("expected 'x' in dimension list"));
        }
        if self.tok.end - self.tok.start != 1 {
            self.advance_prefix(1);
        } else {
            self.advance();
        }
        Ok(())
    }

    /// A dimension size; `0xf32` is `0`, `x`, `f32`.
    fn parse_integer_in_dimension_list(&mut self) -> PResult<i64> {
        let s = self.tok_text();
        if self.is(TokKind::Integer) && s.len() > 1 && s[1] == b'x' {
            self.advance_prefix(1);
            return Ok(0);
        }
        let v = std::str::from_utf8(s).ok().and_then(|d| d.parse::<u64>().ok());
        match v {
            Some(v) if v <= i64::MAX as u64 => {
                self.advance();
                Ok(v as i64)
            }
            _ => Err(self.error_here("invalid dimension")),
        }
    }

    /// `(dim 'x')*` with `?` for dynamic sizes.
    pub(super) fn parse_dimension_list_ranked(&mut self) -> PResult<Vec<i64>> {
        let mut dims = Vec::new();
        while matches!(self.tok.kind, TokKind::Integer | TokKind::Question) {
            if self.consume_if(TokKind::Question) {
                dims.push(DYNAMIC);
            } else {
                dims.push(self.parse_integer_in_dimension_list()?);
            }
            self.parse_x_in_dimension_list()?;
        }
        Ok(dims)
    }

    /// `*x` (unranked: `(true, [])`) or a ranked dimension list `4x?x` (`(false, dims)`), as
    /// tensor and memref types start.
    fn parse_shape_prefix(&mut self) -> PResult<(bool, Vec<i64>)> {
        if self.consume_if(TokKind::Star) {
            self.parse_x_in_dimension_list()?;
            return Ok((true, Vec::new()));
        }
        Ok((false, self.parse_dimension_list_ranked()?))
    }

    fn parse_tensor_type(&mut self) -> PResult<Type> {
        self.advance();
        self.expect(TokKind::Less, "expected '<' in tensor type")?;
        let (unranked, dims) = self.parse_shape_prefix()?;
        let elem_off = self.tok.start;
        let elem = self.parse_type()?;
        let mut encoding = None;
        if self.consume_if(TokKind::Comma) {
            encoding = self.parse_optional_attribute(None)?;
        }
        self.expect(TokKind::Greater, "expected '>' in tensor type")?;
        if !self.is_valid_tensor_element(elem) {
            return Err(self.error_at(elem_off, "invalid tensor element type"));
        }
        if unranked {
            if encoding.is_some() {
                return Err(self.error_here("cannot apply encoding to unranked tensor"));
            }
            return Ok(self.ctx.intern_type(TypeKind::UnrankedTensor { elem }));
        }
        Ok(self.ctx.tensor_type(dims, elem, encoding))
    }

    fn is_valid_tensor_element(&self, t: Type) -> bool {
        matches!(
            self.ctx.type_kind(t),
            TypeKind::Integer { .. }
                | TypeKind::Index
                | TypeKind::Float(_)
                | TypeKind::Complex(_)
                | TypeKind::Vector { .. }
                | TypeKind::Opaque { .. }
                | TypeKind::Dialect(_)
        )
    }

    fn parse_vector_type(&mut self) -> PResult<Type> {
        self.advance();
        self.expect(TokKind::Less, "expected '<' in vector type")?;
        let mut shape = Vec::new();
        let mut scalable = Vec::new();
        while matches!(self.tok.kind, TokKind::Integer | TokKind::LSquare) {
            let is_scalable = self.consume_if(TokKind::LSquare);
            shape.push(self.parse_integer_in_dimension_list()?);
            if is_scalable && !self.consume_if(TokKind::RSquare) {
                return Err(self.wrong_token("missing ']' closing scalable dimension"));
            }
            scalable.push(is_scalable);
            self.parse_x_in_dimension_list()?;
        }
        if shape.iter().any(|&d| d <= 0) {
            return Err(self.error_here("vector types must have positive constant sizes"));
        }
        let elem_off = self.tok.start;
        let elem = self.parse_type()?;
        self.expect(TokKind::Greater, "expected '>' in vector type")?;
        if !matches!(self.ctx.type_kind(elem), TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_)) {
            return Err(self.error_at(elem_off, "vector elements must be int/index/float type"));
        }
        Ok(self.ctx.intern_type(TypeKind::Vector { shape, scalable, elem }))
    }

    fn parse_complex_type(&mut self) -> PResult<Type> {
        self.advance();
        self.expect(TokKind::Less, "expected '<' in complex type")?;
        let elem_off = self.tok.start;
        let elem = self.parse_type()?;
        self.expect(TokKind::Greater, "expected '>' in complex type")?;
        if !matches!(self.ctx.type_kind(elem), TypeKind::Integer { .. } | TypeKind::Float(_)) {
            return Err(self.error_at(elem_off, "invalid element type for complex"));
        }
        Ok(self.ctx.intern_type(TypeKind::Complex(elem)))
    }

    fn parse_tuple_type(&mut self) -> PResult<Type> {
        self.advance();
        self.expect(TokKind::Less, "expected '<' in tuple type")?;
        let mut elems = Vec::new();
        if !self.consume_if(TokKind::Greater) {
            self.parse_type_list_no_parens(&mut elems)?;
            self.expect(TokKind::Greater, "expected '>' in tuple type")?;
        }
        Ok(self.ctx.intern_type(TypeKind::Tuple(elems)))
    }

    fn parse_memref_type(&mut self) -> PResult<Type> {
        let memref_off = self.tok.start;
        self.advance();
        self.expect(TokKind::Less, "expected '<' in memref type")?;
        let (unranked, shape) = self.parse_shape_prefix()?;
        let elem_off = self.tok.start;
        let elem = self.parse_type()?;
        if !self.is_valid_memref_element(elem) {
            return Err(self.error_at(elem_off, "invalid memref element type"));
        }
        let mut layout: Option<Attr> = None;
        let mut space: Option<Attr> = None;
        if !self.consume_if(TokKind::Greater) {
            self.expect(TokKind::Comma, "expected ',' or '>' in memref type")?;
            if self.is(TokKind::Greater) {
                return Err(self.wrong_token("expected list element"));
            }
            loop {
                let a = self.parse_attribute(None)?;
                if self.is_layout_attr(a) {
                    layout = Some(a);
                    if unranked {
                        return Err(self.error_here("cannot have affine map for unranked memref type"));
                    }
                    if space.is_some() {
                        return Err(self.error_here("expected memory space to be last in memref type"));
                    }
                } else if space.is_some() {
                    return Err(self.error_here("multiple memory spaces specified in memref type"));
                } else {
                    space = Some(a);
                }
                if !self.consume_if(TokKind::Comma) {
                    break;
                }
            }
            self.expect(TokKind::Greater, "expected ',' or '>'")?;
        }
        if let Some(s) = space {
            if !self.is_supported_memory_space(s) {
                return Err(self.error_at(memref_off, "unsupported memory space Attribute"));
            }
            if matches!(self.ctx.attr_kind(s), AttrKind::Integer { value, .. } if value.is_zero()) {
                space = None;
            }
        }
        if unranked {
            return Ok(self.ctx.intern_type(TypeKind::UnrankedMemRef { elem, memory_space: space }));
        }
        if let Some(l) = layout {
            layout = self.check_memref_layout(memref_off, l, shape.len())?;
        }
        Ok(self.ctx.intern_type(TypeKind::MemRef { shape, elem, layout, memory_space: space }))
    }

    fn is_valid_memref_element(&self, t: Type) -> bool {
        match self.ctx.type_kind(t) {
            TypeKind::Integer { .. }
            | TypeKind::Index
            | TypeKind::Float(_)
            | TypeKind::Complex(_)
            | TypeKind::MemRef { .. }
            | TypeKind::Vector { .. }
            | TypeKind::UnrankedMemRef { .. }
            | TypeKind::Dialect(_) => true,
            // Types of registered dialects may implement the element interface; opaque types
            // of unregistered dialects do not.
            TypeKind::Opaque { dialect, .. } => self.ctx.dialect(dialect).is_some(),
            _ => false,
        }
    }

    fn is_layout_attr(&self, a: Attr) -> bool {
        matches!(self.ctx.attr_kind(a), AttrKind::AffineMap(..) | AttrKind::Strided { .. })
    }

    fn is_supported_memory_space(&self, a: Attr) -> bool {
        match self.ctx.attr_kind(a) {
            AttrKind::Integer { .. } | AttrKind::String { .. } | AttrKind::Dictionary(_) => true,
            AttrKind::Opaque { dialect, .. } | AttrKind::TypedOpaque { dialect, .. } => {
                self.ctx.dialect(dialect).is_some()
            }
            _ => false,
        }
    }

    /// Verifies a layout against the rank; identity affine maps are dropped (MLIR's default).
    fn check_memref_layout(&mut self, at: usize, layout: Attr, rank: usize) -> PResult<Option<Attr>> {
        match self.ctx.attr_kind(layout) {
            AttrKind::AffineMap(text, _) => {
                let text = text.to_string();
                let (dims, identity) = super::attrs::affine_map_shape(&text);
                // Like MLIR's `AffineMap::isIdentity`, symbols do not matter.
                let identity = identity || super::attrs::affine_map_shape(&without_symbol_list(&text)).1;
                if dims != rank {
                    return Err(self.error_at(
                        at,
                        format!("memref layout mismatch between rank and affine map: {rank} != {dims}"),
                    ));
                }
                Ok(if identity { None } else { Some(layout) })
            }
            AttrKind::Strided { strides, .. } => {
                if strides.len() != rank {
                    return Err(self.error_at(at, "expected the number of strides to match the rank"));
                }
                Ok(Some(layout))
            }
            _ => Ok(Some(layout)),
        }
    }

    /// `!alias`, `!dialect.body`, `!dialect.name<...>` or `!dialect<...>`.
    fn parse_extended_type(&mut self) -> PResult<Type> {
        let (dialect, data, data_off, verbatim) = match self.parse_extended_symbol(true)? {
            super::attrs::Extended::Alias(name) => {
                return match self.type_aliases.get(name).copied() {
                    Some(t) => Ok(t),
                    None => {
                        let msg = format!("undefined symbol alias id '{}'", String::from_utf8_lossy(name));
                        Err(self.wrong_token(&msg))
                    }
                };
            }
            super::attrs::Extended::Dialect { dialect, data, data_off, verbatim } => {
                (dialect, data, data_off, verbatim)
            }
        };
        if !self.ctx.allows_unregistered() && self.ctx.dialect(&dialect).is_none() {
            let msg = format!(
                "`!\"{dialect}\"<\"{data}\">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
            );
            return Err(self.error_at(data_off, msg));
        }
        let symbol = super::dialect::Symbol { dialect: &dialect, data: &data, data_off, verbatim };
        if let Some(data) = self.parse_registered_dialect_symbol(symbol, true)? {
            return Ok(self.ctx.intern_type(TypeKind::Dialect(Box::new(data))));
        }
        let pretty = super::attrs::is_simple_enough_for_pretty(&data);
        Ok(self.ctx.intern_type(TypeKind::Opaque { dialect: dialect.into(), body: data.into(), pretty }))
    }
}

/// An affine map's text without its symbol list: `(d0)[s0] -> (d0)` becomes `(d0) -> (d0)`.
fn without_symbol_list(text: &str) -> String {
    let Some((dims, rest)) = text.split_once(')') else { return text.to_string() };
    match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((_, after)) => format!("{dims}){after}"),
        None => text.to_string(),
    }
}
