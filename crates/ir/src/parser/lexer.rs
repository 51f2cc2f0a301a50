//! The lexer of MLIR's textual format: turns source bytes into [`Token`]s (a kind plus byte
//! offsets), one at a time and without allocating.
//!
//! It follows the token rules of mlir-opt-19 exactly, because diagnostics and their columns
//! depend on them: `%`/`^`/`#`/`!` identifiers take a *suffix-id* (`[0-9]+` or
//! `[A-Za-z$._-][A-Za-z0-9$._-]*`), bare identifiers are `[A-Za-z_][A-Za-z0-9_$.]*` (those
//! spelled `i32`, `si8`, `ui64` are integer-type tokens), numbers are decimal or `0x` hex
//! integers or `[0-9]+.[0-9]*([eE][-+]?[0-9]+)?` floats, strings accept the escapes `\"`, `\\`,
//! `\n`, `\t` and `\XX`. A NUL byte inside the buffer is skipped like whitespace; the end of
//! the buffer is [`TokKind::Eof`]. Bytes that start no token give a [`TokKind::Error`] token
//! with the message mlir-opt uses; the parser reports it.
//!
//! Invariant: `pos` never exceeds the buffer length; every token satisfies
//! `start <= end <= len`.
//!
//! Layer: the lowest of the parser (it imports only `asm::Punct`); the token-level helpers that
//! several parser files share (`parse_u64_literal`, `punct_kind`) live here so that those files
//! do not import each other.

use crate::asm::Punct;

/// The kind of a token. Keywords are bare identifiers; the parser compares their spelling.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TokKind {
    Eof,
    /// A lexing error; [`Token::error`] holds the message.
    Error,
    BareIdent,
    /// `i32`, `si8`, `ui64`.
    IntType,
    /// `%name`.
    PercentIdent,
    /// `^name`.
    CaretIdent,
    /// `#name`.
    HashIdent,
    /// `!name`.
    BangIdent,
    /// `@name` or `@"name"`.
    AtIdent,
    Integer,
    Float,
    String,
    Arrow,
    Colon,
    Comma,
    Ellipsis,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Equal,
    Plus,
    Star,
    Minus,
    Question,
    Vertical,
    /// `{-#`.
    MetadataBegin,
    /// `#-}`.
    MetadataEnd,
}

/// A token: its kind and byte range in the buffer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Token {
    pub kind: TokKind,
    pub start: usize,
    pub end: usize,
    /// For [`TokKind::Error`]: the message, reported at `start`.
    pub error: &'static str,
}

impl Token {
    fn new(kind: TokKind, start: usize, end: usize) -> Self {
        Token { kind, start, end, error: "" }
    }
}

/// Lexes `src` on demand; [`Lexer::reset`] moves back or forward (the parser re-lexes after
/// splitting tokens such as `4xf32`).
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

#[inline]
fn is_alpha(c: u8) -> bool {
    c.is_ascii_alphabetic()
}
#[inline]
fn is_digit(c: u8) -> bool {
    c.is_ascii_digit()
}
#[inline]
fn is_suffix_punct(c: u8) -> bool {
    matches!(c, b'$' | b'.' | b'_' | b'-')
}
#[inline]
pub fn is_bare_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        Lexer { src, pos: 0 }
    }

    /// The byte at `i`, or 0 past the end (mirrors the NUL terminator MLIR relies on).
    #[inline]
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    /// Continue lexing at byte offset `pos`.
    pub fn reset(&mut self, pos: usize) {
        self.pos = pos.min(self.src.len());
    }

    fn error(&mut self, at: usize, msg: &'static str) -> Token {
        // Resume after the offending byte so that a caller that keeps going makes progress.
        self.pos = (at + 1).min(self.src.len()).max(self.pos);
        Token { kind: TokKind::Error, start: at, end: self.pos, error: msg }
    }

    /// Lexes the next token.
    pub fn next_token(&mut self) -> Token {
        loop {
            let start = self.pos;
            if start >= self.src.len() {
                return Token::new(TokKind::Eof, self.src.len(), self.src.len());
            }
            let c = self.src[start];
            self.pos += 1;
            let single = |this: &Self, k| Token::new(k, start, this.pos);
            match c {
                b' ' | b'\t' | b'\n' | b'\r' | 0 => continue,
                b':' => return single(self, TokKind::Colon),
                b',' => return single(self, TokKind::Comma),
                b'(' => return single(self, TokKind::LParen),
                b')' => return single(self, TokKind::RParen),
                b'{' => {
                    if self.at(self.pos) == b'-' && self.at(self.pos + 1) == b'#' {
                        self.pos += 2;
                        return single(self, TokKind::MetadataBegin);
                    }
                    return single(self, TokKind::LBrace);
                }
                b'}' => return single(self, TokKind::RBrace),
                b'[' => return single(self, TokKind::LSquare),
                b']' => return single(self, TokKind::RSquare),
                b'<' => return single(self, TokKind::Less),
                b'>' => return single(self, TokKind::Greater),
                b'=' => return single(self, TokKind::Equal),
                b'+' => return single(self, TokKind::Plus),
                b'*' => return single(self, TokKind::Star),
                b'?' => return single(self, TokKind::Question),
                b'|' => return single(self, TokKind::Vertical),
                b'-' => {
                    if self.at(self.pos) == b'>' {
                        self.pos += 1;
                        return single(self, TokKind::Arrow);
                    }
                    return single(self, TokKind::Minus);
                }
                b'.' => {
                    if self.at(self.pos) == b'.' && self.at(self.pos + 1) == b'.' {
                        self.pos += 2;
                        return single(self, TokKind::Ellipsis);
                    }
                    // MLIR points after the first dot.
                    return self.error(start + 1, "expected three consecutive dots for an ellipsis");
                }
                b'/' => {
                    if self.at(self.pos) == b'/' {
                        self.skip_comment();
                        continue;
                    }
                    return self.error(start, "unexpected character");
                }
                b'@' => return self.lex_at_ident(start),
                b'#' => {
                    if self.at(self.pos) == b'-' && self.at(self.pos + 1) == b'}' {
                        self.pos += 2;
                        return single(self, TokKind::MetadataEnd);
                    }
                    return self.lex_prefixed(start, TokKind::HashIdent, "invalid attribute name");
                }
                b'!' => return self.lex_prefixed(start, TokKind::BangIdent, "invalid type identifier"),
                b'^' => return self.lex_prefixed(start, TokKind::CaretIdent, "invalid block name"),
                b'%' => return self.lex_prefixed(start, TokKind::PercentIdent, "invalid SSA name"),
                b'"' => return self.lex_string(start),
                b'0'..=b'9' => return self.lex_number(start),
                b'_' => return self.lex_bare_ident(start),
                _ if is_alpha(c) => return self.lex_bare_ident(start),
                _ => {
                    // Step over a whole UTF-8 sequence so that offsets stay on char boundaries.
                    let mut end = self.pos;
                    while end < self.src.len() && (self.src[end] & 0xC0) == 0x80 {
                        end += 1;
                    }
                    self.pos = end;
                    return Token { kind: TokKind::Error, start, end, error: "unexpected character" };
                }
            }
        }
    }

    fn skip_comment(&mut self) {
        match self.src[self.pos..].iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => self.pos += i + 1,
            None => self.pos = self.src.len(),
        }
    }

    fn lex_bare_ident(&mut self, start: usize) -> Token {
        while self.pos < self.src.len() && is_bare_ident_char(self.src[self.pos]) {
            self.pos += 1;
        }
        let s = &self.src[start..self.pos];
        let all_digits = |t: &[u8]| t.iter().all(|c| c.is_ascii_digit());
        let is_int_type = (s.len() > 1 && s[0] == b'i' && all_digits(&s[1..]))
            || (s.len() > 2 && s[1] == b'i' && (s[0] == b's' || s[0] == b'u') && all_digits(&s[2..]));
        Token::new(if is_int_type { TokKind::IntType } else { TokKind::BareIdent }, start, self.pos)
    }

    fn lex_at_ident(&mut self, start: usize) -> Token {
        let c = self.at(self.pos);
        if c == b'"' {
            self.pos += 1;
            let t = self.lex_string(self.pos - 1);
            if t.kind == TokKind::Error {
                return t;
            }
            return Token::new(TokKind::AtIdent, start, self.pos);
        }
        if !is_alpha(c) && c != b'_' {
            let at = self.pos;
            return self.error(at, "@ identifier expected to start with letter or '_'");
        }
        self.pos += 1;
        while self.pos < self.src.len() && is_bare_ident_char(self.src[self.pos]) {
            self.pos += 1;
        }
        Token::new(TokKind::AtIdent, start, self.pos)
    }

    fn lex_prefixed(&mut self, start: usize, kind: TokKind, err: &'static str) -> Token {
        let c = self.at(self.pos);
        if is_digit(c) {
            while self.pos < self.src.len() && is_digit(self.src[self.pos]) {
                self.pos += 1;
            }
        } else if is_alpha(c) || is_suffix_punct(c) {
            self.pos += 1;
            while self.pos < self.src.len() {
                let c = self.src[self.pos];
                if is_alpha(c) || is_digit(c) || is_suffix_punct(c) {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        } else {
            return self.error(start, err);
        }
        Token::new(kind, start, self.pos)
    }

    fn lex_number(&mut self, start: usize) -> Token {
        let first = self.src[start];
        if first == b'0' && self.at(self.pos) == b'x' {
            if !self.at(self.pos + 1).is_ascii_hexdigit() {
                return Token::new(TokKind::Integer, start, self.pos);
            }
            self.pos += 2;
            while self.pos < self.src.len() && self.src[self.pos].is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Token::new(TokKind::Integer, start, self.pos);
        }
        while self.pos < self.src.len() && is_digit(self.src[self.pos]) {
            self.pos += 1;
        }
        if self.at(self.pos) != b'.' {
            return Token::new(TokKind::Integer, start, self.pos);
        }
        self.pos += 1;
        while self.pos < self.src.len() && is_digit(self.src[self.pos]) {
            self.pos += 1;
        }
        let e = self.at(self.pos);
        if e == b'e' || e == b'E' {
            let n1 = self.at(self.pos + 1);
            let n2 = self.at(self.pos + 2);
            if is_digit(n1) || ((n1 == b'-' || n1 == b'+') && is_digit(n2)) {
                self.pos += 2;
                while self.pos < self.src.len() && is_digit(self.src[self.pos]) {
                    self.pos += 1;
                }
            }
        }
        Token::new(TokKind::Float, start, self.pos)
    }

    /// Lexes a string whose opening quote is at `start` (`pos` is just past it).
    fn lex_string(&mut self, start: usize) -> Token {
        loop {
            if self.pos >= self.src.len() {
                let end = self.src.len();
                return Token { kind: TokKind::Error, start: end, end, error: "expected '\"' in string literal" };
            }
            let c = self.src[self.pos];
            self.pos += 1;
            match c {
                b'"' => return Token::new(TokKind::String, start, self.pos),
                b'\n' | 0x0B | 0x0C => {
                    let at = self.pos - 1;
                    return Token {
                        kind: TokKind::Error,
                        start: at,
                        end: self.pos,
                        error: "expected '\"' in string literal",
                    };
                }
                b'\\' => {
                    let n = self.at(self.pos);
                    if matches!(n, b'"' | b'\\' | b'n' | b't') {
                        self.pos += 1;
                    } else if n.is_ascii_hexdigit() && self.at(self.pos + 1).is_ascii_hexdigit() {
                        self.pos += 2;
                    } else {
                        let at = self.pos - 1;
                        return Token {
                            kind: TokKind::Error,
                            start: at,
                            end: self.pos,
                            error: "unknown escape in string literal",
                        };
                    }
                }
                _ => {}
            }
        }
    }
}

/// The value of a string token's spelling (with quotes): escapes decoded into raw bytes.
pub fn string_value(spelling: &[u8]) -> Vec<u8> {
    let body = if spelling.len() >= 2 { &spelling[1..spelling.len() - 1] } else { &[][..] };
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != b'\\' || i + 1 >= body.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let n = body[i + 1];
        match n {
            b'"' | b'\\' => {
                out.push(n);
                i += 2;
            }
            b'n' => {
                out.push(b'\n');
                i += 2;
            }
            b't' => {
                out.push(b'\t');
                i += 2;
            }
            _ => {
                let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                let lo = body.get(i + 2).copied().unwrap_or(b'0');
                out.push(hex(n) * 16 + hex(lo));
                i += 3;
            }
        }
    }
    out
}

/// The token kind of a punctuation an `OpAsmParser`/`DialectAsmParser` caller asks for.
pub(super) fn punct_kind(p: Punct) -> TokKind {
    match p {
        Punct::Comma => TokKind::Comma,
        Punct::Colon => TokKind::Colon,
        Punct::Equal => TokKind::Equal,
        Punct::Arrow => TokKind::Arrow,
        Punct::LParen => TokKind::LParen,
        Punct::RParen => TokKind::RParen,
        Punct::LBrace => TokKind::LBrace,
        Punct::RBrace => TokKind::RBrace,
        Punct::LSquare => TokKind::LSquare,
        Punct::RSquare => TokKind::RSquare,
        Punct::Less => TokKind::Less,
        Punct::Greater => TokKind::Greater,
        Punct::Question => TokKind::Question,
        Punct::Star => TokKind::Star,
        Punct::Plus => TokKind::Plus,
        Punct::Vertical => TokKind::Vertical,
    }
}

/// A decimal or hex literal as a u64.
pub(super) fn parse_u64_literal(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokKind> {
        let mut l = Lexer::new(s.as_bytes());
        let mut out = Vec::new();
        loop {
            let t = l.next_token();
            out.push(t.kind);
            if t.kind == TokKind::Eof {
                return out;
            }
        }
    }

    #[test]
    fn lexes_op_line() {
        use TokKind::*;
        assert_eq!(
            kinds(r#"%0:2 = "fz.a"(%x#1) : (i32) -> !fz.t<4> // c"#),
            vec![
                PercentIdent,
                Colon,
                Integer,
                Equal,
                String,
                LParen,
                PercentIdent,
                HashIdent,
                RParen,
                Colon,
                LParen,
                IntType,
                RParen,
                Arrow,
                BangIdent,
                Less,
                Integer,
                Greater,
                Eof
            ]
        );
        assert_eq!(
            kinds("1.5e-3 0x1F 0xf32 4xf32 x"),
            vec![Float, Integer, Integer, Integer, BareIdent, BareIdent, Eof]
        );
        assert_eq!(kinds("{-# #-} ... @\"q\" @a.b"), vec![MetadataBegin, MetadataEnd, Ellipsis, AtIdent, AtIdent, Eof]);
    }

    #[test]
    fn errors_and_strings() {
        let mut l = Lexer::new(br#""a\q""#);
        let t = l.next_token();
        assert_eq!((t.kind, t.start, t.error), (TokKind::Error, 2, "unknown escape in string literal"));
        assert_eq!(string_value(br#""a\n\"\41\\""#), b"a\n\"A\\".to_vec());
        let mut l = Lexer::new("% é".as_bytes());
        assert_eq!(l.next_token().error, "invalid SSA name");
        let t = l.next_token();
        assert_eq!((t.kind, t.end), (TokKind::Error, 4));
        assert_eq!(l.next_token().kind, TokKind::Eof);
        assert_eq!(kinds("a\0b"), vec![TokKind::BareIdent, TokKind::BareIdent, TokKind::Eof]);
    }
}
