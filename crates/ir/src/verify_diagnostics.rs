//! `--verify-diagnostics`: checking emitted diagnostics against `expected-*` annotations in the
//! source, with mlir-opt's semantics.
//!
//! An annotation is a line matching
//! `expected-(error|warning|remark|note)(-re)? *(@(+N|-N|above|below|unknown))? *{{TEXT}}` (TEXT
//! runs to the last `}}` of the line). It expects a diagnostic of that severity whose message
//! contains TEXT, on the annotation's own line, N lines below/above it, the line above
//! (`@above`), the next line that is not itself an annotation (`@below`), or with an unknown
//! location (`@unknown`). With `-re`, the parts of TEXT inside `{{...}}` are regular expressions
//! (a small backtracking engine: literals, `.`, classes, `\d \w \s`, `* + ?`, groups, `|`).
//! Every diagnostic, notes included, must be expected, and every annotation must be met; each
//! failure is reported as mlir-opt words it (`unexpected error: ...`, `expected error "..." was
//! not produced`).

use crate::context::Context;
use crate::diag::{Diagnostic, Severity, SourceFile, SourceMgr, file_line_col, render};

/// One parsed annotation.
#[derive(Clone, Debug)]
struct Expected {
    severity: Severity,
    /// 1-based line the diagnostic must be on; `None` for `@unknown`.
    line: Option<u32>,
    text: String,
    regex: bool,
    /// Where the annotation's `expected-` starts (line, col), for "was not produced".
    at: (u32, u32),
    matched: bool,
}

/// Checks `diags` (emitted while processing `source`) against its annotations. Returns the
/// rendered verification failures; empty means success.
pub fn check(source: &SourceFile, diags: &[Diagnostic], ctx: &Context) -> Result<(), Vec<String>> {
    let mut expected = parse_annotations(&source.text);
    let mut sources = SourceMgr::new();
    sources.add(source.clone());
    let mut failures = Vec::new();
    for d in diags.iter().flat_map(|d| std::iter::once(d).chain(d.notes.iter())) {
        let pos = file_line_col(ctx, d.loc).filter(|(f, _, _)| *f == source.name);
        let line = pos.as_ref().map(|p| p.1);
        let hit = expected
            .iter_mut()
            .find(|e| !e.matched && e.severity == d.severity && e.line == line && message_matches(e, &d.message));
        match hit {
            Some(e) => e.matched = true,
            None => {
                let mut u = d.clone();
                u.severity = Severity::Error;
                u.message = format!("unexpected {}: {}", d.severity.label(), d.message);
                u.notes.clear();
                failures.push(render(ctx, &sources, &u));
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        failures.push(render_not_produced(source, e));
    }
    if failures.is_empty() { Ok(()) } else { Err(failures) }
}

fn message_matches(e: &Expected, message: &str) -> bool {
    if e.regex { regex_text_matches(&e.text, message) } else { message.contains(e.text.as_str()) }
}

fn render_not_produced(source: &SourceFile, e: &Expected) -> String {
    let (line, col) = e.at;
    let mut out = format!(
        "{}:{line}:{col}: error: expected {} \"{}\" was not produced\n",
        source.name,
        e.severity.label(),
        e.text
    );
    if let Some(text) = source.line_text(line) {
        out.push_str(text);
        out.push('\n');
        out.push_str(&" ".repeat(col.saturating_sub(1) as usize));
        out.push('^');
        out.push_str(&"~".repeat(e.text.len().saturating_sub(1)));
        out.push('\n');
    }
    out
}

fn parse_annotations(text: &str) -> Vec<Expected> {
    let mut out: Vec<Expected> = Vec::new();
    let mut pending_below: Vec<usize> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i as u32 + 1;
        let line = raw.trim_end();
        match parse_annotation(line, line_no) {
            Some((mut e, designator)) => {
                match designator {
                    Designator::Here => e.line = Some(line_no),
                    Designator::Offset(n) => e.line = Some((line_no as i64 + n).max(0) as u32),
                    Designator::Above => e.line = Some(line_no.saturating_sub(1)),
                    Designator::Below => pending_below.push(out.len()),
                    Designator::Unknown => e.line = None,
                }
                out.push(e);
            }
            None => {
                for idx in pending_below.drain(..) {
                    out[idx].line = Some(line_no);
                }
            }
        }
    }
    out
}

enum Designator {
    Here,
    Offset(i64),
    Above,
    Below,
    Unknown,
}

fn parse_annotation(line: &str, line_no: u32) -> Option<(Expected, Designator)> {
    let start = line.find("expected-")?;
    let rest = &line[start + "expected-".len()..];
    let (severity, rest) = [
        ("error", Severity::Error),
        ("warning", Severity::Warning),
        ("remark", Severity::Remark),
        ("note", Severity::Note),
    ]
    .iter()
    .find_map(|(k, s)| rest.strip_prefix(k).map(|r| (*s, r)))?;
    let (regex, rest) = match rest.strip_prefix("-re") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let rest = rest.trim_start_matches(' ');
    let (designator, rest) = match rest.strip_prefix('@') {
        Some(r) => parse_designator(r)?,
        None => (Designator::Here, rest),
    };
    let rest = rest.trim_start_matches(' ');
    let body = rest.strip_prefix("{{")?;
    let end = body.rfind("}}")?;
    if !body[end + 2..].is_empty() {
        return None;
    }
    let e = Expected {
        severity,
        line: None,
        text: body[..end].to_string(),
        regex,
        at: (line_no, start as u32 + 1),
        matched: false,
    };
    Some((e, designator))
}

fn parse_designator(r: &str) -> Option<(Designator, &str)> {
    for (kw, d) in [("above", Designator::Above), ("below", Designator::Below), ("unknown", Designator::Unknown)] {
        if let Some(rest) = r.strip_prefix(kw) {
            return Some((d, rest));
        }
    }
    let sign = match r.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: String = r[1..].chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: i64 = digits.parse().ok()?;
    Some((Designator::Offset(sign * n), &r[1 + digits.len()..]))
}

// ----- `-re` matching ------------------------------------------------------------------------

/// Text with `{{regex}}` segments: literal parts match literally.
fn regex_text_matches(pattern: &str, message: &str) -> bool {
    let mut re = String::new();
    let mut rest = pattern;
    while let Some(open) = rest.find("{{") {
        re.push_str(&escape_literal(&rest[..open]));
        let after = &rest[open + 2..];
        let close = after.find("}}").unwrap_or(after.len());
        re.push('(');
        re.push_str(&after[..close]);
        re.push(')');
        rest = after.get(close + 2..).unwrap_or("");
    }
    re.push_str(&escape_literal(rest));
    mini_regex::search(&re, message)
}

fn escape_literal(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A small backtracking regular-expression engine (enough for diagnostics patterns).
mod mini_regex {
    #[derive(Debug, Clone)]
    enum Node {
        Char(char),
        Any,
        Class(Vec<(char, char)>, bool),
        Start,
        End,
        Group(Vec<Vec<Node>>),
        Repeat(Box<Node>, usize, usize),
    }

    pub fn search(pattern: &str, text: &str) -> bool {
        let chars: Vec<char> = pattern.chars().collect();
        let mut pos = 0;
        let Some(alts) = parse_alts(&chars, &mut pos) else { return false };
        if pos != chars.len() {
            return false;
        }
        let t: Vec<char> = text.chars().collect();
        let root = vec![Node::Group(alts)];
        (0..=t.len()).any(|s| match_seq(&root, &t, s, &mut |_| true))
    }

    fn parse_alts(p: &[char], pos: &mut usize) -> Option<Vec<Vec<Node>>> {
        let mut alts = vec![Vec::new()];
        while *pos < p.len() {
            let c = p[*pos];
            match c {
                ')' => break,
                '|' => {
                    *pos += 1;
                    alts.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            let atom = parse_atom(p, pos)?;
            let atom = parse_quantifier(p, pos, atom);
            alts.last_mut()?.push(atom);
        }
        Some(alts)
    }

    fn parse_atom(p: &[char], pos: &mut usize) -> Option<Node> {
        let c = p[*pos];
        *pos += 1;
        Some(match c {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '(' => {
                let alts = parse_alts(p, pos)?;
                if p.get(*pos) != Some(&')') {
                    return None;
                }
                *pos += 1;
                Node::Group(alts)
            }
            '[' => parse_class(p, pos)?,
            '\\' => {
                let e = *p.get(*pos)?;
                *pos += 1;
                escape_class(e).unwrap_or(Node::Char(e))
            }
            c => Node::Char(c),
        })
    }

    fn escape_class(e: char) -> Option<Node> {
        let digit = vec![('0', '9')];
        let word = vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
        let space = vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')];
        Some(match e {
            'd' => Node::Class(digit, false),
            'D' => Node::Class(digit, true),
            'w' => Node::Class(word, false),
            'W' => Node::Class(word, true),
            's' => Node::Class(space, false),
            'S' => Node::Class(space, true),
            _ => return None,
        })
    }

    fn parse_class(p: &[char], pos: &mut usize) -> Option<Node> {
        let negated = p.get(*pos) == Some(&'^');
        if negated {
            *pos += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = *p.get(*pos)?;
            *pos += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let e = *p.get(*pos)?;
                *pos += 1;
                e
            } else {
                c
            };
            if p.get(*pos) == Some(&'-') && p.get(*pos + 1).is_some_and(|&n| n != ']') {
                let hi = p[*pos + 1];
                *pos += 2;
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Some(Node::Class(ranges, negated))
    }

    fn parse_quantifier(p: &[char], pos: &mut usize, atom: Node) -> Node {
        let (min, max) = match p.get(*pos) {
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('?') => (0, 1),
            _ => return atom,
        };
        *pos += 1;
        Node::Repeat(Box::new(atom), min, max)
    }

    /// Matches `seq` at `i`, then calls `k` with the end position (continuation-passing
    /// backtracking). Bounded by the pattern and text sizes of a diagnostic.
    fn match_seq(seq: &[Node], t: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
        let Some((first, rest)) = seq.split_first() else { return k(i) };
        match first {
            Node::Char(c) => t.get(i) == Some(c) && match_seq(rest, t, i + 1, k),
            Node::Any => i < t.len() && match_seq(rest, t, i + 1, k),
            Node::Class(ranges, neg) => {
                t.get(i).is_some_and(|&ch| ranges.iter().any(|&(lo, hi)| lo <= ch && ch <= hi) != *neg)
                    && match_seq(rest, t, i + 1, k)
            }
            Node::Start => i == 0 && match_seq(rest, t, i, k),
            Node::End => i == t.len() && match_seq(rest, t, i, k),
            Node::Group(alts) => alts.iter().any(|alt| match_seq(alt, t, i, &mut |j| match_seq(rest, t, j, k))),
            Node::Repeat(node, min, max) => match_repeat(node, *min, *max, rest, t, i, k),
        }
    }

    fn match_repeat(
        node: &Node,
        min: usize,
        max: usize,
        rest: &[Node],
        t: &[char],
        i: usize,
        k: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        // Greedy: try one more repetition first (guarding against empty loops).
        if max > 0 {
            let one = std::slice::from_ref(node);
            let more = match_seq(one, t, i, &mut |j| {
                j != i && match_repeat(node, min.saturating_sub(1), max - 1, rest, t, j, k)
            });
            if more {
                return true;
            }
        }
        min == 0 && match_seq(rest, t, i, k)
    }

    #[cfg(test)]
    mod tests {
        use super::search;

        #[test]
        fn basics() {
            assert!(search("use of .* name", "use of undeclared SSA value name"));
            assert!(search("^a[0-9]+b$", "a123b"));
            assert!(!search("^a[0-9]+b$", "a12xb"));
            assert!(search("(foo|bar)baz", "xxbarbaz"));
            assert!(search("\\d\\d?", "7"));
            assert!(!search("x[^a]", "xa"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn src(text: &str) -> SourceFile {
        SourceFile::new("t.mlir", Arc::from(text))
    }

    #[test]
    fn designators() {
        let text = "// expected-error @+2 {{a}}\n// expected-error @below {{b}}\nop\n// expected-note @above {{c}}\n";
        let e = parse_annotations(text);
        assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), vec![Some(3), Some(3), Some(3)]);
        assert_eq!(e[1].at, (2, 4));
    }

    #[test]
    fn matches_and_reports_like_mlir_opt() {
        let ctx = Context::empty();
        let s = src("// expected-error @+1 {{undeclared}}\nx\n// expected-error @below {{foo}}\ny\n");
        let ok = Diagnostic::error(ctx.file_loc("t.mlir", 2, 1), "use of undeclared SSA value name");
        let stray = Diagnostic::error(ctx.file_loc("t.mlir", 4, 1), "boom")
            .with_note(ctx.file_loc("t.mlir", 2, 1), "prior use here");
        let errs = check(&s, &[ok, stray], &ctx).unwrap_err();
        assert_eq!(errs.len(), 3);
        assert_eq!(errs[0], "t.mlir:4:1: error: unexpected error: boom\ny\n^\n");
        assert_eq!(errs[1], "t.mlir:2:1: error: unexpected note: prior use here\nx\n^\n");
        assert_eq!(
            errs[2],
            "t.mlir:3:4: error: expected error \"foo\" was not produced\n// expected-error @below {{foo}}\n   ^~~\n"
        );
    }

    #[test]
    fn regex_annotations() {
        let ctx = Context::empty();
        let s = src("// expected-error-re @+1 {{use of {{.*}} name}}\nx\n");
        let d = Diagnostic::error(ctx.file_loc("t.mlir", 2, 1), "use of undeclared SSA value name");
        assert!(check(&s, &[d], &ctx).is_ok());
    }

    #[test]
    fn unknown_location() {
        let ctx = Context::empty();
        let s = src("// expected-warning @unknown {{w}}\n");
        let d = Diagnostic::warning(ctx.unknown_loc(), "w!");
        assert!(check(&s, &[d], &ctx).is_ok());
    }
}
