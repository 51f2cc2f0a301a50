//! In-process `FileCheck` for the lit harness: LLVM FileCheck 19 semantics on top of
//! `litcheck-filecheck`.
//!
//! # How it is built
//!
//! litcheck 0.5 gets the *pattern language* right (literal text, `{{regex}}`,
//! `[[VAR:regex]]`, `[[VAR]]`, `[[#numeric expressions]]`, `{LITERAL}`, `@LINE`), but its
//! *driver* differs from LLVM in ways that matter for MLIR tests: it does not canonicalise
//! horizontal whitespace in the input, and its `CHECK-DAG` is an unordered set matcher
//! (overlapping matches are accepted, identical patterns collapse into one, and a DAG
//! pattern cannot use a variable defined by an earlier DAG of the same group).
//!
//! So this module owns everything *around* single patterns, following the algorithm of
//! LLVM's `FileCheck.cpp` (re-implemented here, not copied):
//!
//! * [`canonicalize`]: CRLF -> LF always; runs of spaces/tabs -> one space in both the
//!   check file and the input, unless `--strict-whitespace` (LLVM does exactly this to both
//!   buffers before anything else, so patterns, `{{regex}}` bodies included, see one space).
//! * [`scan`]: finds directives with LLVM's prefix rules (word boundary before the prefix,
//!   `-NEXT/-SAME/-NOT/-DAG/-LABEL/-EMPTY/-COUNT-n`, `{LITERAL}`, comment prefixes,
//!   misspelled `CHECK_NEXT:`, `-DAG-NOT` combos, bad counts, empty patterns, variables in
//!   `CHECK-LABEL`, `-NEXT/-SAME/-EMPTY` without a previous `CHECK:`, unused prefixes).
//! * [`Checker`]: LLVM's `checkInput`/`CheckString::Check`/`CheckDag`/`CheckNot` loop:
//!   label regions, DAG groups matched in order without overlap, NOTs checked in the skipped
//!   regions, NEXT/SAME/EMPTY line arithmetic, COUNT, implicit check-nots, var scopes.
//! * [`Checker::find`]: the only call into litcheck. It asks "where is the first match of
//!   this one pattern in this slice of the input, given these variables?" by building a tiny
//!   check file (the pattern on its original line number, so `@LINE` is right), passing the
//!   variables the pattern names as `-D`/`-D#` definitions, and reading back the match span
//!   and the captured variables. LLVM also matches each pattern against a fresh sub-buffer
//!   starting at the search position (so `{{^}}` matches there), which is what a slice
//!   gives us. Before asking, it rejects uses of undefined variables (LLVM does so even
//!   when the text before the use fails to match) and rewrites regex parts where Rust and
//!   POSIX regexes differ ([`rewrite_for_litcheck`]: `{{a|b}}` is grouped, `[^...]`
//!   does not match a newline).
//!
//! # Invariants
//!
//! * Never panics on any check file, input, or argument list: everything is an error
//!   value, turned into exit status 2 (bad usage / bad check file) or 1 (check failed).
//! * Exit statuses follow LLVM: 0 pass, 1 a check failed, 2 invalid check file or options.
//! * Diagnostics name the check file position (`file:line:col: error: CHECK-NEXT: ...`),
//!   the input position, and end with a dump of the searched input.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use litcheck_filecheck::expr::{CliVariable, Expr, NumberFormat, Value, VariableName};
use litcheck_filecheck::litcheck::Symbol;
use litcheck_filecheck::litcheck::diagnostics::miette::Diagnostic;
use litcheck_filecheck::litcheck::diagnostics::{FileName, SourceLanguage, SourceManager};
use litcheck_filecheck::{CheckFailedError, Config, Dump, Test, TestFailed};

/// Command-line options of `FileCheck` that the harness understands.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub check_file: Option<String>,
    pub input_file: Option<String>,
    /// Empty means the default `CHECK`.
    pub check_prefixes: Vec<String>,
    /// `None` means the default `COM,RUN`.
    pub comment_prefixes: Option<Vec<String>>,
    pub implicit_check_not: Vec<String>,
    /// Raw `-D` arguments: `NAME=VALUE` or `#[FMT,]NAME=EXPR`.
    pub defines: Vec<String>,
    pub match_full_lines: bool,
    pub strict_whitespace: bool,
    pub allow_empty: bool,
    pub enable_var_scope: bool,
    pub allow_unused_prefixes: bool,
    pub ignore_case: bool,
    pub allow_deprecated_dag_overlap: bool,
}

/// Result of one FileCheck run: LLVM exit status and the text it wrote to stderr.
pub struct Outcome {
    pub code: i32,
    pub stderr: String,
}

impl Outcome {
    fn usage(msg: impl Into<String>) -> Self {
        let mut stderr = msg.into();
        if !stderr.ends_with('\n') {
            stderr.push('\n');
        }
        Outcome { code: 2, stderr }
    }
}

/// Parses a FileCheck command line (without the program name), LLVM `cl` style:
/// `-opt`, `--opt`, `--opt=value`, `--opt value`, `-DNAME=VALUE`, `-D NAME=VALUE`.
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    let mut positional = Vec::new();
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-" || !arg.starts_with('-') {
            positional.push(arg.clone());
            continue;
        }
        // -D is a prefix option.
        if let Some(rest) = arg.strip_prefix("-D").or_else(|| arg.strip_prefix("--D")) {
            if rest.is_empty() {
                let v = args.get(i).ok_or("FileCheck: -D requires a value")?;
                i += 1;
                o.defines.push(v.clone());
            } else {
                o.defines.push(rest.to_string());
            }
            continue;
        }
        let body = arg.trim_start_matches('-');
        let (name, inline_value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let value = |i: &mut usize| -> Result<String, String> {
            if let Some(v) = &inline_value {
                return Ok(v.clone());
            }
            let v = args.get(*i).ok_or(format!("FileCheck: option '{arg}' requires a value"))?;
            *i += 1;
            Ok(v.clone())
        };
        let flag = |inline: &Option<String>| -> Result<bool, String> {
            match inline.as_deref() {
                None | Some("true") | Some("1") => Ok(true),
                Some("false") | Some("0") => Ok(false),
                Some(v) => Err(format!("FileCheck: invalid boolean value '{v}' for '{arg}'")),
            }
        };
        match name {
            "check-prefix" => o.check_prefixes.push(value(&mut i)?),
            "check-prefixes" => o.check_prefixes.extend(value(&mut i)?.split(',').map(str::to_string)),
            "comment-prefixes" => {
                o.comment_prefixes.get_or_insert_with(Vec::new).extend(value(&mut i)?.split(',').map(str::to_string))
            }
            "implicit-check-not" => o.implicit_check_not.push(value(&mut i)?),
            "input-file" => o.input_file = Some(value(&mut i)?),
            "match-full-lines" => o.match_full_lines = flag(&inline_value)?,
            "strict-whitespace" => o.strict_whitespace = flag(&inline_value)?,
            "allow-empty" => o.allow_empty = flag(&inline_value)?,
            "enable-var-scope" => o.enable_var_scope = flag(&inline_value)?,
            "allow-unused-prefixes" => o.allow_unused_prefixes = flag(&inline_value)?,
            "ignore-case" => o.ignore_case = flag(&inline_value)?,
            "allow-deprecated-dag-overlap" => o.allow_deprecated_dag_overlap = flag(&inline_value)?,
            // Output-only options: accepted and ignored (we always show the searched input).
            "dump-input" | "dump-input-filter" | "dump-input-context" | "color" => {
                if inline_value.is_none() && name != "color" {
                    value(&mut i)?;
                }
            }
            "v" | "vv" | "q" | "no-color" | "color=0" => {}
            _ => return Err(format!("FileCheck: unknown or unsupported option '{arg}'")),
        }
    }
    match positional.len() {
        0 => return Err("FileCheck: no check file given".into()),
        1 => o.check_file = Some(positional.remove(0)),
        _ => {
            return Err(format!("FileCheck: too many positional arguments: {positional:?}"));
        }
    }
    Ok(o)
}

/// LLVM's `CanonicalizeFile`: drop `\r` of `\r\n`, and unless `strict` collapse every run
/// of spaces and tabs into a single space. Line structure (and so line numbers) is kept.
pub fn canonicalize(text: &str, strict: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if !strict && (c == ' ' || c == '\t') {
            out.push(' ');
            while matches!(chars.peek(), Some(' ') | Some('\t')) {
                chars.next();
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Runs FileCheck: `check_text` is the check file (named `check_name` in messages),
/// `input` the text to verify (named `input_name`).
pub fn run(opts: &Options, check_name: &str, check_text: &str, input_name: &str, input: &str) -> Outcome {
    if let Err(msg) = validate_prefixes(opts) {
        return Outcome::usage(msg);
    }
    let mut defines = Vec::new();
    for d in &opts.defines {
        match d.parse::<CliVariable>() {
            Ok(_) => defines.push(d.clone()),
            Err(e) => {
                return Outcome::usage(format!("FileCheck: invalid -D definition '{d}': {}", e.trim()));
            }
        }
    }
    let check = canonicalize(check_text, opts.strict_whitespace);
    let input = canonicalize(input, opts.strict_whitespace);
    if input.is_empty() && !opts.allow_empty {
        return Outcome::usage(format!("FileCheck error: '{input_name}' is empty."));
    }
    let program = match scan(opts, &check) {
        Ok(p) => p,
        Err(diag) => return Outcome::usage(diag.render(check_name, &check)),
    };
    let mut checker = Checker {
        opts,
        check_name,
        check: &check,
        input_name,
        input: &input,
        program: &program,
        env: Env::new(&defines),
        errors: String::new(),
    };
    if checker.check_input() {
        Outcome { code: 0, stderr: String::new() }
    } else {
        let mut stderr = checker.errors;
        stderr.push_str(&dump_input(input_name, &input));
        Outcome { code: 1, stderr }
    }
}

fn is_valid_prefix(p: &str) -> bool {
    let mut chars = p.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn check_prefixes(opts: &Options) -> Vec<String> {
    if opts.check_prefixes.is_empty() { vec!["CHECK".to_string()] } else { opts.check_prefixes.clone() }
}

fn comment_prefixes(opts: &Options) -> Vec<String> {
    opts.comment_prefixes.clone().unwrap_or_else(|| vec!["COM".to_string(), "RUN".to_string()])
}

fn validate_prefixes(opts: &Options) -> Result<(), String> {
    let mut seen: Vec<&str> = Vec::new();
    let checks = check_prefixes(opts);
    let comments = comment_prefixes(opts);
    for (p, what) in checks.iter().map(|p| (p, "check")).chain(comments.iter().map(|p| (p, "comment"))) {
        if !is_valid_prefix(p) {
            return Err(format!(
                "error: supplied {what} prefix must start with a letter and contain only \
                 alphanumeric characters, hyphens, and underscores: '{p}'"
            ));
        }
        if seen.contains(&p.as_str()) {
            return Err(format!(
                "error: supplied {what} prefix must be unique among check and comment prefixes: '{p}'"
            ));
        }
        seen.push(p);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Check-file scanning
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
}

/// One directive of the check file.
#[derive(Clone, Debug)]
struct Directive {
    kind: Kind,
    prefix: String,
    /// 1-based line of the directive.
    line: usize,
    /// Byte offset of the pattern in the check text.
    pattern_pos: usize,
    pattern: String,
    literal: bool,
    count: usize,
}

impl Directive {
    fn name(&self) -> String {
        let suffix = match self.kind {
            Kind::Plain if self.count > 1 => "-COUNT",
            Kind::Plain => "",
            Kind::Next => "-NEXT",
            Kind::Same => "-SAME",
            Kind::Not => "-NOT",
            Kind::Dag => "-DAG",
            Kind::Label => "-LABEL",
            Kind::Empty => "-EMPTY",
        };
        format!("{}{}", self.prefix, suffix)
    }
}

/// A pattern to search for: a directive of the file, or an `--implicit-check-not`.
#[derive(Clone, Copy, Debug)]
enum PatRef {
    Dir(usize),
    Implicit(usize),
}

/// LLVM's `FileCheckString`: one positive check plus the DAG/NOT patterns before it.
#[derive(Debug)]
struct CheckString {
    /// `None` is the implicit end-of-file check that carries trailing DAG/NOTs.
    dir: Option<usize>,
    dag_nots: Vec<(Kind, PatRef)>,
}

#[derive(Debug)]
struct Program {
    dirs: Vec<Directive>,
    strings: Vec<CheckString>,
}

/// A diagnostic located in the check file (or on the command line when `pos` is None).
struct ScanError {
    pos: Option<usize>,
    msg: String,
}

impl ScanError {
    fn render(&self, check_name: &str, check: &str) -> String {
        match self.pos {
            Some(pos) => located(check_name, check, pos, "error", &self.msg),
            None => format!("error: {}\n", self.msg),
        }
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

enum TypeResult {
    None,
    Comment(usize),
    Check { kind: Kind, count: usize, literal: bool, after: usize, misspelled: bool },
    BadNot,
    BadCount,
}

/// LLVM's `FindCheckType`: what follows the prefix at `text[pos..]`.
fn find_check_type(text: &str, pos: usize, prefix: &str, is_comment: bool) -> TypeResult {
    let rest_start = pos + prefix.len();
    let rest = &text[rest_start..];
    if rest.is_empty() {
        return TypeResult::None;
    }
    if is_comment {
        return if rest.starts_with(':') { TypeResult::Comment(rest_start + 1) } else { TypeResult::None };
    }
    // Consumes `:` or `{LITERAL[, LITERAL]}:` at `at`.
    let modifiers = |at: usize, kind: Kind, count: usize, misspelled: bool| -> TypeResult {
        let r = &text[at..];
        if r.starts_with(':') {
            return TypeResult::Check { kind, count, literal: false, after: at + 1, misspelled };
        }
        let Some(mut r) = r.strip_prefix('{') else {
            return TypeResult::None;
        };
        // LITERAL is the only modifier; the list must hold at least one.
        let literal = true;
        loop {
            r = r.trim_start();
            match r.strip_prefix("LITERAL") {
                Some(x) => r = x.trim_start(),
                None => return TypeResult::None,
            }
            match r.strip_prefix(',') {
                Some(x) => r = x,
                None => break,
            }
        }
        match r.strip_prefix("}:") {
            Some(x) => TypeResult::Check { kind, count, literal, after: text.len() - x.len(), misspelled },
            None => TypeResult::None,
        }
    };
    if rest.starts_with(':') || rest.starts_with('{') {
        return modifiers(rest_start, Kind::Plain, 1, false);
    }
    let misspelled;
    let mut at = rest_start;
    if rest.starts_with('_') {
        misspelled = true;
        at += 1;
    } else if rest.len() <= 1 || !rest.starts_with('-') {
        return TypeResult::None;
    } else {
        misspelled = false;
        at += 1;
    }
    let r = &text[at..];
    if let Some(num) = r.strip_prefix("COUNT-") {
        let digits = num.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return TypeResult::BadCount;
        }
        let count: i64 = num[..digits].parse().unwrap_or(i64::MAX);
        if count <= 0 || count > i32::MAX as i64 {
            return TypeResult::BadCount;
        }
        let after_num = &num[digits..];
        if !after_num.starts_with(':') && !after_num.starts_with('{') {
            return TypeResult::BadCount;
        }
        return modifiers(text.len() - after_num.len(), Kind::Plain, count as usize, misspelled);
    }
    for bad in ["DAG-NOT:", "NOT-DAG:", "NEXT-NOT:", "NOT-NEXT:", "SAME-NOT:", "NOT-SAME:", "EMPTY-NOT:", "NOT-EMPTY:"]
    {
        if r.starts_with(bad) {
            return TypeResult::BadNot;
        }
    }
    for (word, kind) in [
        ("NEXT", Kind::Next),
        ("SAME", Kind::Same),
        ("NOT", Kind::Not),
        ("DAG", Kind::Dag),
        ("LABEL", Kind::Label),
        ("EMPTY", Kind::Empty),
    ] {
        if r.starts_with(word) {
            return modifiers(at + word.len(), kind, 1, misspelled);
        }
    }
    TypeResult::None
}

/// True if a (non-literal) pattern contains a `[[...]]` substitution block outside `{{...}}`.
fn has_variable(pattern: &str) -> bool {
    let mut rest = pattern;
    loop {
        let regex = rest.find("{{");
        let var = rest.find("[[");
        match (regex, var) {
            (_, None) => return false,
            (Some(r), Some(v)) if r < v => match rest[r + 2..].find("}}") {
                Some(end) => rest = &rest[r + 2 + end + 2..],
                None => return false,
            },
            (_, Some(_)) => return true,
        }
    }
}

/// Reads the check file like LLVM's `readCheckFile`, including its static errors.
fn scan(opts: &Options, text: &str) -> Result<Program, ScanError> {
    let checks = check_prefixes(opts);
    let comments = comment_prefixes(opts);
    let mut all: Vec<(&str, bool)> = checks.iter().map(|p| (p.as_str(), false)).collect();
    all.extend(comments.iter().map(|p| (p.as_str(), true)));
    let full_strict = opts.strict_whitespace && opts.match_full_lines;

    let bytes = text.as_bytes();
    let mut used: Vec<&str> = Vec::new();
    let mut dirs: Vec<Directive> = Vec::new();
    let mut strings: Vec<CheckString> = Vec::new();
    let implicit: Vec<(Kind, PatRef)> =
        (0..opts.implicit_check_not.len()).map(|i| (Kind::Not, PatRef::Implicit(i))).collect();
    let mut pending = implicit.clone();

    let mut pos = 0; // start of the unscanned buffer
    let (mut line, mut line_counted_to) = (1usize, 0usize);
    'outer: while pos < text.len() {
        // FindFirstMatchingPrefix: leftmost, then longest, prefix occurrence.
        let mut search = pos;
        let (ppos, prefix, ty) = loop {
            let mut best: Option<(usize, &str, bool)> = None;
            let mut i = search;
            while i < text.len() && best.is_none() {
                if text.is_char_boundary(i) {
                    for &(p, c) in &all {
                        if text[i..].starts_with(p) && best.is_none_or(|(_, bp, _)| p.len() > bp.len()) {
                            best = Some((i, p, c));
                        }
                    }
                }
                if best.is_none() {
                    i += 1;
                }
            }
            let Some((at, p, c)) = best else { break 'outer };
            let skipped_ok = at == search || !is_word_byte(bytes[at - 1]);
            if skipped_ok {
                let ty = find_check_type(text, at, p, c);
                if !matches!(ty, TypeResult::None) {
                    break (at, p, ty);
                }
            }
            // Skip the prefix and the rest of that word.
            let mut j = at + p.len();
            while j < text.len() && is_word_byte(bytes[j]) {
                j += 1;
            }
            search = j;
        };
        line += bytes[line_counted_to..ppos].iter().filter(|&&b| b == b'\n').count();
        line_counted_to = ppos;
        let (kind, count, literal, after) = match ty {
            TypeResult::None => {
                // Not produced by the search loop above; skip the prefix to stay total.
                pos = ppos + prefix.len();
                continue;
            }
            TypeResult::Comment(after) => {
                pos = text[after..].find(['\n', '\r']).map_or(text.len(), |e| after + e);
                continue;
            }
            TypeResult::BadNot => {
                return Err(ScanError { pos: Some(ppos), msg: format!("unsupported -NOT combo on prefix '{prefix}'") });
            }
            TypeResult::BadCount => {
                return Err(ScanError {
                    pos: Some(ppos),
                    msg: format!("invalid count in -COUNT specification on prefix '{prefix}'"),
                });
            }
            TypeResult::Check { misspelled: true, after, .. } => {
                return Err(ScanError {
                    pos: Some(ppos),
                    msg: format!("misspelled directive '{}'", &text[ppos..after]),
                });
            }
            TypeResult::Check { kind, count, literal, after, misspelled: false } => (kind, count, literal, after),
        };
        if !used.contains(&prefix) {
            used.push(prefix);
        }
        let mut pstart = after;
        if !full_strict {
            while pstart < text.len() && matches!(bytes[pstart], b' ' | b'\t') {
                pstart += 1;
            }
        }
        let eol = text[pstart..].find(['\n', '\r']).map_or(text.len(), |e| pstart + e);
        pos = eol;
        let mut pattern = &text[pstart..eol];
        if !full_strict {
            pattern = pattern.trim_end_matches([' ', '\t']);
        }
        if pattern.is_empty() && kind != Kind::Empty {
            return Err(ScanError {
                pos: Some(pstart),
                msg: format!("found empty check string with prefix '{prefix}:'"),
            });
        }
        if !pattern.is_empty() && kind == Kind::Empty {
            return Err(ScanError {
                pos: Some(pstart),
                msg: format!("found non-empty check string for empty check with prefix '{prefix}:'"),
            });
        }
        if kind == Kind::Label && !literal && has_variable(pattern) {
            return Err(ScanError {
                pos: Some(ppos),
                msg: format!("found '{prefix}-LABEL:' with variable definition or use"),
            });
        }
        if matches!(kind, Kind::Next | Kind::Same | Kind::Empty) && strings.is_empty() {
            let ty = match kind {
                Kind::Next => "NEXT",
                Kind::Empty => "EMPTY",
                _ => "SAME",
            };
            return Err(ScanError {
                pos: Some(ppos),
                msg: format!("found '{prefix}-{ty}' without previous '{prefix}: line"),
            });
        }
        dirs.push(Directive {
            kind,
            prefix: prefix.to_string(),
            line,
            pattern_pos: pstart,
            pattern: pattern.to_string(),
            literal,
            count,
        });
        let idx = dirs.len() - 1;
        if matches!(kind, Kind::Dag | Kind::Not) {
            pending.push((kind, PatRef::Dir(idx)));
            continue;
        }
        strings.push(CheckString { dir: Some(idx), dag_nots: std::mem::replace(&mut pending, implicit.clone()) });
    }
    if !pending.is_empty() {
        strings.push(CheckString { dir: None, dag_nots: pending });
    }

    let unused: Vec<&String> = checks.iter().filter(|p| !used.contains(&p.as_str())).collect();
    let none_found = unused.len() == checks.len();
    let some_unused = !opts.allow_unused_prefixes && !unused.is_empty();
    if (none_found || some_unused) && (opts.implicit_check_not.is_empty() || !opts.check_prefixes.is_empty()) {
        let list: Vec<String> = unused.iter().map(|p| format!("'{p}:'")).collect();
        let plural = if unused.len() > 1 { "es" } else { "" };
        return Err(ScanError {
            pos: None,
            msg: format!("no check strings found with prefix{plural} {}", list.join(", ")),
        });
    }
    Ok(Program { dirs, strings })
}

// ---------------------------------------------------------------------------------------
// Variables
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Var {
    Str(String),
    Num(i128, Option<NumberFormat>),
}

/// Variable bindings: locals (cleared by `--enable-var-scope` at each label region) and
/// `$globals`. Command-line `-D` definitions are kept raw and passed through.
struct Env {
    cli: Vec<(String, String)>,
    local: BTreeMap<String, Var>,
    global: BTreeMap<String, Var>,
}

impl Env {
    fn new(defines: &[String]) -> Self {
        let cli = defines
            .iter()
            .map(|d| {
                let def = d.trim_start_matches('#');
                let name_part = def.split('=').next().unwrap_or("");
                let name = name_part.rsplit(',').next().unwrap_or("").trim().to_string();
                (name, d.clone())
            })
            .collect();
        Env { cli, local: BTreeMap::new(), global: BTreeMap::new() }
    }

    /// Whether `name` (with `$` for globals) has a value.
    fn is_defined(&self, name: &str) -> bool {
        let bare = name.trim_start_matches('$');
        let bound = if name.starts_with('$') { self.global.contains_key(bare) } else { self.local.contains_key(bare) };
        bound || self.cli.iter().any(|(n, _)| n.trim_start_matches('$') == bare)
    }

    fn clear_locals(&mut self) {
        self.local.clear();
        self.cli.retain(|(name, _)| name.starts_with('$'));
    }

    /// The bindings a pattern may refer to, as litcheck `-D` definitions (later ones
    /// win). Passing only the referenced names keeps each query O(pattern), not
    /// O(all variables so far).
    fn definitions(&self, pattern: &str) -> Vec<CliVariable> {
        let names = referenced_names(pattern);
        let wanted = |n: &str| names.iter().any(|m| m == n.trim_start_matches('$'));
        let mut out = Vec::new();
        for (name, raw) in &self.cli {
            if wanted(name)
                && let Ok(v) = raw.trim_start_matches('$').parse()
            {
                out.push(v);
            }
        }
        for (name, var) in self.global.iter().chain(self.local.iter()) {
            if !wanted(name) {
                continue;
            }
            let raw = match var {
                Var::Str(s) => format!("{name}={s}"),
                Var::Num(n, fmt) => {
                    format!("#{}{name}={n}", fmt.map(format_spec).unwrap_or_default())
                }
            };
            if let Ok(v) = raw.parse() {
                out.push(v);
            }
        }
        out
    }
}

/// Every identifier inside the `[[...]]` blocks of a pattern (without any `$`): the
/// variables it uses or defines, plus harmless extras such as function names.
fn referenced_names(pattern: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = pattern;
    while let Some(start) = rest.find("[[") {
        let body = &rest[start + 2..];
        let end = body.find("]]").unwrap_or(body.len());
        let block = &body[..end];
        // In `[[NAME:regex]]` only NAME is a name; in `[[#...]]` every identifier may be.
        let scan = if block.starts_with('#') { block } else { block.split(':').next().unwrap_or("") };
        let mut word = String::new();
        for c in scan.chars().chain([' ']) {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                if !word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit()) {
                    names.push(std::mem::take(&mut word));
                }
                word.clear();
            }
        }
        rest = &body[end.min(body.len())..];
        if rest.is_empty() {
            break;
        }
    }
    names
}

/// Variables a (non-literal) pattern uses without a definition before the use, in the
/// order LLVM would complain about them. LLVM rejects such a pattern as soon as it is
/// matched, even where the text before the use already fails to match; litcheck only
/// notices when it gets that far, so we check up front. `is_defined` answers for
/// variables bound by earlier patterns or `-D`.
fn undefined_uses(pattern: &str, is_defined: &dyn Fn(&str) -> bool) -> Vec<String> {
    const FUNCTIONS: [&str; 6] = ["add", "sub", "mul", "div", "min", "max"];
    let mut here: Vec<String> = Vec::new(); // string variables defined earlier in this pattern
    let mut missing = Vec::new();
    let mut rest = pattern;
    // `[[` inside a `{{...}}` regex block is regex syntax, so regex blocks are skipped.
    while let (Some(var), regex) = (rest.find("[["), rest.find("{{")) {
        if let Some(r) = regex
            && r < var
        {
            match rest[r + 2..].find("}}") {
                Some(end) => {
                    rest = &rest[r + 2 + end + 2..];
                    continue;
                }
                None => break,
            }
        }
        let body = &rest[var + 2..];
        if let Some(numeric) = body.strip_prefix('#') {
            let Some(end) = numeric.find("]]") else { break };
            let block = &numeric[..end];
            // `[[#%fmt,NAME:expr]]`: NAME is defined, identifiers of expr are used.
            let block = match block.find(',') {
                Some(comma) if block.starts_with('%') => &block[comma + 1..],
                _ => block,
            };
            let expr = match block.split_once(':') {
                Some((_, e)) => e,
                None => block,
            };
            let mut word = String::new();
            for c in expr.chars().chain([' ']) {
                if c.is_ascii_alphanumeric() || c == '_' || c == '@' || c == '$' {
                    word.push(c);
                    continue;
                }
                let w = std::mem::take(&mut word);
                let name = w.trim_start_matches('$');
                let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
                if is_name && c != '(' && !FUNCTIONS.contains(&name) && !is_defined(&w) && !missing.contains(&w) {
                    missing.push(w);
                }
            }
            rest = &numeric[end + 2..];
            continue;
        }
        let Some(end) = body.find("]]") else { break };
        let block = &body[..end];
        match block.split_once(':') {
            Some((name, _)) => {
                // A definition; its regex may contain `]]`, so resume after the real end.
                here.push(name.to_string());
                let after = &body[name.len() + 1..];
                match regex_var_end(after) {
                    Some(e) => rest = &after[e + 2..],
                    None => break,
                }
                continue;
            }
            None => {
                let ok = block.starts_with('@') || here.iter().any(|h| h == block) || is_defined(block);
                let valid = block.trim_start_matches('$').starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
                if !ok && valid && !missing.iter().any(|m| m == block) {
                    missing.push(block.to_string());
                }
            }
        }
        rest = &body[end + 2..];
    }
    missing
}

/// `%x,` style spec that re-creates a numeric format in a `-D#` definition.
fn format_spec(f: NumberFormat) -> String {
    let prec = |p: u8| {
        if p == 0 { String::new() } else { format!(".{p}") }
    };
    match f {
        NumberFormat::Unsigned { precision } => format!("%{}u,", prec(precision)),
        NumberFormat::Signed { precision } => format!("%{}d,", prec(precision)),
        NumberFormat::Hex { precision, require_prefix, casing } => {
            let upper = format!("{casing:?}") == "Upper";
            format!("%{}{}{},", if require_prefix { "#" } else { "" }, prec(precision), if upper { "X" } else { "x" })
        }
    }
}

// ---------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------

struct Found {
    start: usize,
    end: usize,
    captures: Vec<(bool, String, Var)>,
}

enum FindError {
    /// litcheck rejected the pattern or failed while matching (undefined variable, ...).
    Pattern(String),
}

struct Checker<'a> {
    opts: &'a Options,
    check_name: &'a str,
    check: &'a str,
    input_name: &'a str,
    input: &'a str,
    program: &'a Program,
    env: Env,
    errors: String,
}

impl Checker<'_> {
    /// LLVM `checkInput`: returns true when every check passed.
    fn check_input(&mut self) -> bool {
        let strings = &self.program.strings;
        let mut failed = false;
        let mut buffer = 0usize; // start of the unchecked input
        let mut i = 0;
        while i < strings.len() {
            // Find the end of the region: the next CHECK-LABEL's match.
            let mut region_end = self.input.len();
            let mut j = i;
            while j < strings.len() {
                let is_label = strings[j].dir.is_some_and(|d| self.program.dirs[d].kind == Kind::Label);
                if !is_label {
                    j += 1;
                    continue;
                }
                match self.match_string(j, buffer, self.input.len(), true) {
                    Some((pos, len)) => {
                        region_end = pos + len;
                        j += 1;
                        break;
                    }
                    None => return false,
                }
            }
            if i != 0 && self.opts.enable_var_scope {
                self.env.clear_locals();
            }
            let mut region_start = buffer;
            while i < j {
                match self.match_string(i, region_start, region_end, false) {
                    Some((pos, len)) => region_start = pos + len,
                    None => {
                        failed = true;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            buffer = region_end;
            if j == strings.len() {
                break;
            }
        }
        !failed
    }

    fn dir(&self, p: PatRef) -> Option<&Directive> {
        match p {
            PatRef::Dir(d) => self.program.dirs.get(d),
            PatRef::Implicit(_) => None,
        }
    }

    /// True if `pattern` is nothing but `[[VAR]]` uses whose values are all empty.
    fn substitutes_to_empty(&self, pattern: &str, kind: Kind) -> bool {
        if self.opts.match_full_lines && kind != Kind::Not {
            return false;
        }
        let mut rest = pattern;
        while let Some(body) = rest.strip_prefix("[[") {
            let Some(end) = body.find("]]") else {
                return false;
            };
            let name = &body[..end];
            let value =
                if let Some(g) = name.strip_prefix('$') { self.env.global.get(g) } else { self.env.local.get(name) };
            if !matches!(value, Some(Var::Str(v)) if v.is_empty()) {
                return false;
            }
            rest = &body[end + 2..];
        }
        rest.is_empty()
    }

    fn pat_name(&self, p: PatRef) -> String {
        match self.dir(p) {
            Some(d) => d.name(),
            None => "IMPLICIT-CHECK-NOT".to_string(),
        }
    }

    /// Searches `[from, to)` for the first match of pattern `p`. Updates variables.
    fn find(&mut self, p: PatRef, from: usize, to: usize) -> Result<Option<(usize, usize)>, FindError> {
        let to = to.min(self.input.len());
        let from = from.min(to);
        let hay = &self.input[from..to];
        let (line, prefix, literal, pattern, kind) = match p {
            PatRef::Dir(d) => {
                let d = &self.program.dirs[d];
                (d.line, d.prefix.as_str(), d.literal, d.pattern.as_str(), d.kind)
            }
            PatRef::Implicit(i) => (1, "CHECK", false, self.opts.implicit_check_not[i].as_str(), Kind::Not),
        };
        if kind == Kind::Empty {
            // LLVM compiles CHECK-EMPTY to `\n$`; the match starts after the newline.
            let b = hay.as_bytes();
            for (k, &c) in b.iter().enumerate() {
                if c == b'\n' && (k + 1 == b.len() || b[k + 1] == b'\n') {
                    return Ok(Some((from + k + 1, from + k + 1)));
                }
            }
            return Ok(None);
        }
        if !literal {
            let env = &self.env;
            let missing = undefined_uses(pattern, &|n| env.is_defined(n));
            if !missing.is_empty() {
                let list: Vec<String> = missing.iter().map(|m| format!("'{m}'")).collect();
                return Err(FindError::Pattern(format!("undefined variable: {}", list.join(", "))));
            }
        }
        if !literal && self.substitutes_to_empty(pattern, kind) {
            // LLVM builds the regex "" here, which its regcomp rejects, so nothing matches.
            return Ok(None);
        }
        let found = query(
            &QuerySpec {
                line,
                prefix,
                literal,
                pattern,
                full_lines: self.opts.match_full_lines && kind != Kind::Not,
                strict: self.opts.strict_whitespace,
                ignore_case: self.opts.ignore_case,
            },
            hay,
            &self.env,
        )?;
        Ok(found.map(|f| {
            for (global, name, var) in f.captures {
                if global {
                    self.env.global.insert(name, var);
                } else {
                    self.env.local.insert(name, var);
                }
            }
            (from + f.start, from + f.end)
        }))
    }

    /// LLVM `FileCheckString::Check` on `[from, to)`; returns (match pos, match len).
    fn match_string(&mut self, idx: usize, from: usize, to: usize, label_scan: bool) -> Option<(usize, usize)> {
        let s = &self.program.strings[idx];
        let mut last_pos = from;
        let mut not_strings = Vec::new();
        if !label_scan {
            last_pos = self.check_dag(idx, from, to, &mut not_strings)?;
        }
        let Some(d) = s.dir else {
            // Implicit EOF check: matches at the end of the region.
            if self.check_not(&not_strings, last_pos, to) {
                return None;
            }
            return Some((to, 0));
        };
        let dir = self.program.dirs[d].clone();
        let mut last_end = last_pos;
        let mut first_pos = last_pos;
        for n in 1..=dir.count {
            match self.find(PatRef::Dir(d), last_end, to) {
                Ok(Some((s, e))) => {
                    if n == 1 {
                        first_pos = s;
                    }
                    last_end = e;
                }
                Ok(None) => {
                    let what = if dir.count > 1 {
                        format!("{}: expected string not found in input ({n} out of {})", dir.name(), dir.count)
                    } else {
                        format!("{}: expected string not found in input", dir.name())
                    };
                    self.error_at_pattern(&dir, &what);
                    self.note_input(last_end, "scanning from here");
                    self.note_variables(PatRef::Dir(d), last_end);
                    return None;
                }
                Err(FindError::Pattern(msg)) => {
                    self.error_at_pattern(&dir, &format!("{}: {msg}", dir.name()));
                    self.note_input(last_end, "while scanning from here");
                    return None;
                }
            }
        }
        if !label_scan {
            let skipped = self.input.get(last_pos..first_pos).unwrap_or("");
            let newlines = skipped.matches('\n').count();
            if matches!(dir.kind, Kind::Next | Kind::Empty) && newlines != 1 {
                let what = if newlines == 0 {
                    "is on the same line as previous match"
                } else {
                    "is not on the line after the previous match"
                };
                self.error_at_pattern(&dir, &format!("{}: {what}", dir.name()));
                self.note_input(
                    first_pos,
                    &format!(
                        "'{}' match is here",
                        match dir.kind {
                            Kind::Next => "next",
                            _ => "empty",
                        }
                    ),
                );
                self.note_input(last_pos, "previous match ended here");
                return None;
            }
            if dir.kind == Kind::Same && newlines != 0 {
                self.error_at_pattern(&dir, &format!("{}: is not on the same line as the previous match", dir.name()));
                self.note_input(first_pos, "'same' match is here");
                self.note_input(last_pos, "previous match ended here");
                return None;
            }
            if self.check_not(&not_strings, last_pos, first_pos) {
                return None;
            }
        }
        Some((first_pos, last_end - first_pos))
    }

    /// LLVM `CheckNot`: true (and diagnostics) if any NOT pattern matches in `[from, to)`.
    fn check_not(&mut self, nots: &[PatRef], from: usize, to: usize) -> bool {
        let mut failed = false;
        for &p in nots {
            match self.find(p, from, to) {
                Ok(None) => {}
                Ok(Some((s, _))) => {
                    let what = format!("{}: excluded string found in input", self.pat_name(p));
                    self.error_at_ref(p, &what);
                    self.note_input(s, "found here");
                    failed = true;
                }
                Err(FindError::Pattern(msg)) => {
                    let what = format!("{}: {msg}", self.pat_name(p));
                    self.error_at_ref(p, &what);
                    failed = true;
                }
            }
        }
        failed
    }

    /// LLVM `CheckDag`: returns the end of the last DAG group (or `from`).
    fn check_dag(&mut self, idx: usize, from: usize, to: usize, not_strings: &mut Vec<PatRef>) -> Option<usize> {
        let dag_nots = self.program.strings[idx].dag_nots.clone();
        if dag_nots.is_empty() {
            return Some(from);
        }
        let mut start = from;
        let mut ranges: Vec<(usize, usize)> = Vec::new(); // sorted, non-overlapping
        for (k, &(kind, p)) in dag_nots.iter().enumerate() {
            if kind == Kind::Not {
                not_strings.push(p);
                continue;
            }
            let mut pos = start;
            let mut mi = 0;
            let mut skipped_overlaps = 0usize;
            loop {
                match self.find(p, pos, to) {
                    Ok(Some((s, e))) => {
                        if self.opts.allow_deprecated_dag_overlap {
                            if ranges.is_empty() {
                                ranges.push((s, e));
                            } else {
                                ranges[0].0 = ranges[0].0.min(s);
                                ranges[0].1 = ranges[0].1.max(e);
                            }
                            break;
                        }
                        let mut overlap = false;
                        while mi < ranges.len() {
                            if s < ranges[mi].1 {
                                overlap = ranges[mi].0 < e;
                                break;
                            }
                            mi += 1;
                        }
                        if !overlap {
                            ranges.insert(mi, (s, e));
                            break;
                        }
                        skipped_overlaps += 1;
                        pos = ranges[mi].1;
                        mi += 1;
                    }
                    Ok(None) => {
                        let name = self.pat_name(p);
                        self.error_at_ref(p, &format!("{name}: expected string not found in input"));
                        self.note_input(start, "scanning from here");
                        self.note_variables(p, start);
                        if skipped_overlaps > 0 {
                            let _ = writeln!(
                                self.errors,
                                "note: {skipped_overlaps} match(es) were rejected because they overlap a match of an \
                                 earlier CHECK-DAG in the same group (FileCheck forbids overlapping CHECK-DAG matches)"
                            );
                        }
                        return None;
                    }
                    Err(FindError::Pattern(msg)) => {
                        let name = self.pat_name(p);
                        self.error_at_ref(p, &format!("{name}: {msg}"));
                        self.note_input(pos, "while scanning from here");
                        return None;
                    }
                }
            }
            let group_end = k + 1 == dag_nots.len() || dag_nots[k + 1].0 == Kind::Not;
            if group_end {
                if !not_strings.is_empty() {
                    let first = ranges.first().map_or(start, |r| r.0);
                    if self.check_not(not_strings, start, first) {
                        return None;
                    }
                    not_strings.clear();
                }
                start = ranges.last().map_or(start, |r| r.1);
                ranges.clear();
            }
        }
        Some(start)
    }

    fn error_at_pattern(&mut self, d: &Directive, msg: &str) {
        let text = located(self.check_name, self.check, d.pattern_pos, "error", msg);
        self.errors.push_str(&text);
    }

    fn error_at_ref(&mut self, p: PatRef, msg: &str) {
        match self.dir(p).cloned() {
            Some(d) => self.error_at_pattern(&d, msg),
            None => {
                let PatRef::Implicit(i) = p else { return };
                let pat = self.opts.implicit_check_not.get(i).cloned().unwrap_or_default();
                let _ = writeln!(self.errors, "command line: error: {msg}\n  --implicit-check-not='{pat}'");
            }
        }
    }

    /// LLVM-style `with "V" equal to "..."` notes for the variables a pattern uses.
    fn note_variables(&mut self, p: PatRef, pos: usize) {
        let pattern = match p {
            PatRef::Dir(d) if !self.program.dirs[d].literal => self.program.dirs[d].pattern.clone(),
            PatRef::Dir(_) => return,
            PatRef::Implicit(i) => self.opts.implicit_check_not[i].clone(),
        };
        let mut rest = pattern.as_str();
        let mut seen: Vec<String> = Vec::new();
        while let Some(start) = rest.find("[[") {
            let body = &rest[start + 2..];
            let Some(end) = body.find("]]") else { break };
            let name = &body[..end];
            rest = &body[end + 2..];
            let valid = name.strip_prefix('$').unwrap_or(name);
            if valid.is_empty()
                || !valid.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                || seen.iter().any(|n| n == name)
            {
                continue;
            }
            seen.push(name.to_string());
            let value =
                if let Some(g) = name.strip_prefix('$') { self.env.global.get(g) } else { self.env.local.get(name) };
            let shown = match value {
                Some(Var::Str(v)) => format!("\"{v}\""),
                Some(Var::Num(n, _)) => n.to_string(),
                None => match self.env.cli.iter().rev().find(|(n, _)| n == valid || n == name) {
                    Some((_, raw)) => format!("(from -D{raw})"),
                    None => "undefined".to_string(),
                },
            };
            self.note_input(pos, &format!("with \"{name}\" equal to {shown}"));
        }
    }

    fn note_input(&mut self, pos: usize, msg: &str) {
        let text = located(self.input_name, self.input, pos, "note", msg);
        self.errors.push_str(&text);
    }
}

/// `name:line:col: severity: msg`, then the source line and a caret, like LLVM.
fn located(name: &str, text: &str, pos: usize, severity: &str, msg: &str) -> String {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    let line_no = text[..pos].matches('\n').count() + 1;
    let col = text[line_start..pos].chars().count() + 1;
    format!("{name}:{line_no}:{col}: {severity}: {msg}\n{}\n{}^\n", &text[line_start..line_end], " ".repeat(col - 1))
}

/// The input with line numbers, as LLVM's `--dump-input=fail` shows it (without the
/// annotations; the located notes above point into it). Long inputs are elided.
fn dump_input(name: &str, input: &str) -> String {
    const MAX_LINES: usize = 400;
    let mut out = format!("\nInput file: {name}\nFull input was:\n<<<<<<\n");
    let lines: Vec<&str> = input.split('\n').collect();
    let n = if input.ends_with('\n') { lines.len() - 1 } else { lines.len() };
    for (i, line) in lines.iter().take(n).enumerate() {
        if i == MAX_LINES {
            let _ = writeln!(out, "       ... ({} more lines)", n - MAX_LINES);
            break;
        }
        let _ = writeln!(out, "{:>6}: {line}", i + 1);
    }
    out.push_str(">>>>>>\n");
    out
}

// ---------------------------------------------------------------------------------------
// The litcheck query
// ---------------------------------------------------------------------------------------

struct QuerySpec<'a> {
    line: usize,
    prefix: &'a str,
    literal: bool,
    pattern: &'a str,
    full_lines: bool,
    strict: bool,
    ignore_case: bool,
}

/// LLVM compiles pattern regexes with `REG_NEWLINE`, so a negated bracket expression
/// `[^...]` never matches a newline; litcheck's Rust regexes would let `[[V:[^ ]+]]` run
/// across lines. This adds `\n` to every negated class inside `{{...}}` and
/// `[[NAME:...]]`, leaving everything it does not fully understand untouched.
pub fn rewrite_for_litcheck(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut rest = pattern;
    while !rest.is_empty() {
        if let Some(body) = rest.strip_prefix("{{") {
            let Some(end) = body.find("}}") else { break };
            let re = confine_in_regex(&body[..end]);
            out.push_str("{{");
            if re.contains('|') {
                out.push_str("(?:");
                out.push_str(&re);
                out.push(')');
            } else {
                out.push_str(&re);
            }
            out.push_str("}}");
            rest = &body[end + 2..];
        } else if let Some(body) = rest.strip_prefix("[[") {
            let name_len = body
                .char_indices()
                .find(|&(i, c)| !(c.is_ascii_alphanumeric() || c == '_' || (i == 0 && c == '$')))
                .map_or(body.len(), |(i, _)| i);
            let after = &body[name_len..];
            match (name_len > 0, after.strip_prefix(':')) {
                (true, Some(regex)) => match regex_var_end(regex) {
                    Some(end) => {
                        out.push_str("[[");
                        out.push_str(&body[..name_len]);
                        out.push(':');
                        out.push_str(&confine_in_regex(&regex[..end]));
                        out.push_str("]]");
                        rest = &regex[end + 2..];
                    }
                    None => break,
                },
                _ => {
                    // [[VAR]], [[#expr]], [[@LINE]]: copy up to the closing brackets.
                    let Some(end) = body.find("]]") else { break };
                    out.push_str(&rest[..2 + end + 2]);
                    rest = &body[end + 2..];
                }
            }
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out.push_str(rest);
    out
}

/// End of the regex of `[[NAME:regex]]` (the offset of its closing `]]`), counting
/// brackets like LLVM does so that `[[X:[0-9]+]]` ends at the last `]]`.
fn regex_var_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' if depth == 0 => return (b.get(i + 1) == Some(&b']')).then_some(i),
            b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Adds `\n` before the `]` of each negated bracket expression of a regex.
fn confine_in_regex(re: &str) -> String {
    let b = re.as_bytes();
    let mut out = String::with_capacity(re.len() + 4);
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'[' => {
                let negated = b.get(i + 1) == Some(&b'^');
                let mut j = i + 1 + usize::from(negated);
                if b.get(j) == Some(&b']') {
                    j += 1; // a leading ']' is a literal member
                }
                let mut close = None;
                while j < b.len() {
                    match b[j] {
                        b'\\' => j += 2,
                        b'[' if matches!(b.get(j + 1), Some(b':' | b'=' | b'.')) => {
                            let kind = b[j + 1];
                            match re[j + 2..].find(&format!("{}]", kind as char)) {
                                Some(k) => j = j + 2 + k + 2,
                                None => return re.to_string(),
                            }
                        }
                        b']' => {
                            close = Some(j);
                            break;
                        }
                        _ => j += 1,
                    }
                }
                let Some(close) = close else {
                    return re.to_string();
                };
                if negated {
                    out.push_str(&re[copied..close]);
                    out.push_str("\\n");
                    copied = close;
                }
                i = close + 1;
            }
            _ => i += 1,
        }
    }
    out.push_str(&re[copied.min(re.len())..]);
    out
}

/// First match of one pattern in `hay`, via a one-directive litcheck test.
fn query(spec: &QuerySpec<'_>, hay: &str, env: &Env) -> Result<Option<Found>, FindError> {
    let mut check = "\n".repeat(spec.line.saturating_sub(1));
    check.push_str(spec.prefix);
    if spec.literal {
        check.push_str("{LITERAL}");
    }
    // litcheck strips exactly one space here when whitespace is significant, and all
    // leading whitespace otherwise; the pattern is already trimmed the LLVM way.
    check.push_str(": ");
    if spec.literal {
        check.push_str(spec.pattern);
    } else {
        check.push_str(&rewrite_for_litcheck(spec.pattern));
    }
    check.push('\n');

    let options = litcheck_filecheck::Options {
        check_prefixes: vec![Symbol::intern(spec.prefix)],
        // The user may have chosen COM or RUN as a check prefix (with other comment
        // prefixes); the one-line query file has no comments, so use a name nobody writes.
        comment_prefixes: vec![Symbol::intern("FUSER-LIT-NO-COMMENT")],
        allow_unused_prefixes: true,
        allow_empty: true,
        strict_whitespace: spec.strict,
        match_full_lines: spec.full_lines,
        ignore_case: spec.ignore_case,
        dump_input: Dump::Never,
        variables: env.definitions(spec.pattern),
        ..Default::default()
    };
    let config = Config { options, ..Config::default() };
    let check_file = config.source_manager.load(SourceLanguage::Unknown, FileName::from("check"), check);
    let input_file = config.source_manager.load(SourceLanguage::Unknown, FileName::from("input"), hay.to_string());
    let mut test = Test::new(check_file, &config);
    // litcheck is a library we do not control; a panic inside it becomes a pattern error
    // of this directive instead of taking the whole test down.
    let verified = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| test.verify(input_file)));
    let Ok(verified) = verified else {
        return Err(FindError::Pattern("internal error: litcheck panicked while matching this pattern".into()));
    };
    match verified {
        Ok(matches) => {
            let Some(m) = matches.into_iter().next() else {
                return Ok(None);
            };
            let range = m.span.into_slice_index();
            let mut captures = Vec::new();
            for c in m.captures {
                use litcheck_filecheck::ast::Capture;
                let tv = match c.capture {
                    Capture::Implicit(tv) | Capture::Explicit(tv) | Capture::Mapped { with: tv, .. } => tv,
                    Capture::Ignore(_) | Capture::All(_) => continue,
                };
                let (global, name) = match tv.name {
                    VariableName::User(s) => (false, s.to_string()),
                    VariableName::Global(s) => (true, s.to_string()),
                    VariableName::Pseudo(_) => continue,
                };
                let var = match c.value {
                    Value::Str(s) => Var::Str(s.into_owned()),
                    Value::Num(Expr::Num(n)) => Var::Num(n.value, n.format),
                    Value::Num(_) | Value::Undef => continue,
                };
                captures.push((global, name, var));
            }
            let end = range.end.min(hay.len());
            Ok(Some(Found { start: range.start.min(end), end, captures }))
        }
        Err(report) => {
            if let Some(tf) = report.downcast_ref::<TestFailed>() {
                let only_no_match = !tf.errors.is_empty()
                    && tf.errors.iter().all(|e| matches!(e, CheckFailedError::MatchNoneButExpected { .. }));
                if only_no_match {
                    return Ok(None);
                }
            }
            let diag: &dyn Diagnostic = report.as_ref();
            Err(FindError::Pattern(render_diagnostic(diag)))
        }
    }
}

/// Compact text rendering of a litcheck (miette) diagnostic for pattern errors (bad
/// regex, undefined variable, ...): the messages of the innermost diagnostics, each with
/// its label texts, then any help. The wrapper diagnostics ("test failed", "error
/// occurred while matching pattern") add nothing once we point at the directive ourselves.
fn render_diagnostic(diag: &dyn Diagnostic) -> String {
    fn leaves<'a>(diag: &'a dyn Diagnostic, out: &mut Vec<&'a dyn Diagnostic>) {
        let mut any = false;
        if let Some(related) = diag.related() {
            for r in related {
                any = true;
                leaves(r, out);
            }
        }
        if !any {
            out.push(diag);
        }
    }
    let mut found = Vec::new();
    leaves(diag, &mut found);
    let mut parts = Vec::new();
    let mut helps = Vec::new();
    for d in found {
        let mut msg = d.to_string();
        let labels: Vec<String> = d
            .labels()
            .into_iter()
            .flatten()
            .filter_map(|l| l.label().map(str::to_string))
            .filter(|l| !l.is_empty())
            .collect();
        if !labels.is_empty() && !msg.contains('\n') {
            msg = format!("{msg} ({})", labels.join("; "));
        }
        parts.push(msg);
        if let Some(help) = d.help() {
            helps.push(format!("help: {help}"));
        }
    }
    let mut out = parts.join("; ");
    for h in helps {
        out.push('\n');
        out.push_str(&h);
    }
    out
}
