//! Text helpers of the printer: decimal numbers, LLVM's string escaping, bare identifiers,
//! symbol names and the two spellings of dialect symbols.
//!
//! Layer: the lowest of the printer: functions on `String`s, importing nothing.

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &buf[i..] {
        out.push(d as char);
    }
}

/// MLIR's bare identifier test for attribute names and symbol names:
/// `[a-zA-Z_][a-zA-Z0-9_$.]*`.
pub(crate) fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    b[1..].iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
}

/// Appends `bytes` in quotes with LLVM's escaping: printable ASCII verbatim except `"` and
/// `\`; `\` doubled; everything else (and `"`) as `\XX` in upper-case hex.
pub(crate) fn push_quoted(out: &mut String, bytes: &[u8]) {
    out.push('"');
    push_escaped(out, bytes);
    out.push('"');
}

pub(crate) fn push_escaped(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &c in bytes {
        if c == b'\\' {
            out.push_str("\\\\");
        } else if (0x20..0x7F).contains(&c) && c != b'"' {
            out.push(c as char);
        } else {
            out.push('\\');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        }
    }
}

/// A name as a bare identifier when possible, else quoted and escaped.
pub(crate) fn push_keyword_or_string(out: &mut String, s: &str) {
    if is_bare_identifier(s) {
        out.push_str(s);
    } else {
        push_quoted(out, s.as_bytes());
    }
}

/// `@name`, quoted when not a bare identifier (`@"quoted name"`).
pub(crate) fn push_symbol(out: &mut String, s: &str) {
    if s.is_empty() {
        out.push_str("@<<INVALID EMPTY SYMBOL>>");
        return;
    }
    out.push('@');
    push_keyword_or_string(out, s);
}

/// A dialect attribute or type we keep as text: `#dialect.body` in the pretty form, else
/// `#dialect<body>`. The parser decides `pretty` with MLIR's rule ([`is_simple_dialect_body`]
/// of the symbol data) and may append a ` : type` suffix to a pretty body.
pub(crate) fn push_dialect_symbol(out: &mut String, prefix: char, dialect: &str, body: &str, pretty: bool) {
    out.push(prefix);
    out.push_str(dialect);
    if pretty {
        out.push('.');
        out.push_str(body);
    } else {
        out.push('<');
        out.push_str(body);
        out.push('>');
    }
}

/// MLIR's test for the pretty dialect-symbol form: an identifier (letters, digits, `.`, `_`,
/// starting with a letter), optionally followed by one `<...>` group.
pub fn is_simple_dialect_body(body: &str) -> bool {
    let b = body.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() => {}
        _ => return false,
    }
    let rest = body.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    rest.is_empty() || (rest.starts_with('<') && rest.ends_with('>'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_llvm() {
        let mut s = String::new();
        push_quoted(&mut s, "a\"b\\c\n\u{e9}\x7f".as_bytes());
        assert_eq!(s, r#""a\22b\\c\0A\C3\A9\7F""#);
    }

    #[test]
    fn keywords_and_symbols() {
        let mut s = String::new();
        push_keyword_or_string(&mut s, "a.b$c");
        s.push(' ');
        push_keyword_or_string(&mut s, "1a");
        s.push(' ');
        push_symbol(&mut s, "with-dash");
        assert_eq!(s, r#"a.b$c "1a" @"with-dash""#);
    }

    #[test]
    fn dialect_symbols() {
        assert!(is_simple_dialect_body("abc"));
        assert!(is_simple_dialect_body("a.b<1>"));
        assert!(!is_simple_dialect_body("\"x y\""));
        assert!(!is_simple_dialect_body("9x"));
        let mut s = String::new();
        push_dialect_symbol(&mut s, '#', "fz", "typed<1> : i32", true);
        push_dialect_symbol(&mut s, '!', "fz", "\"x y\"", false);
        assert_eq!(s, "#fz.typed<1> : i32!fz<\"x y\">");
    }

    #[test]
    fn numbers() {
        let mut s = String::new();
        push_u64(&mut s, 0);
        push_u64(&mut s, 18446744073709551615);
        assert_eq!(s, "018446744073709551615");
    }
}
