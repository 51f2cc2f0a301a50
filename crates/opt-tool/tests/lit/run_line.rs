//! Test-file directives and the RUN-line language of the lit harness.
//!
//! This module is pure text processing; nothing here runs a process.
//!
//! * [`parse_test_file`] collects `RUN:` lines (joining lines that end in `\`), and the
//!   `XFAIL:`, `UNSUPPORTED:` and `REQUIRES:` lists. A directive counts only when it is the
//!   first thing in a comment (`// RUN:`, also `#` or `;` comments), so `CHECK` lines that
//!   merely mention "RUN:" are not commands.
//! * [`lex`] splits a RUN line into words and operators like a POSIX shell would, with
//!   `'single'` and `"double"` quotes and backslash escapes; words glued to quotes stay one
//!   word (`--pass-pipeline='builtin.module(cse)'` is one argument).
//! * [`parse`] builds a [`Script`]: pipelines (`|`) joined by `&&`, `||` or `;`, each
//!   command with its redirections (`<`, `>`, `>>`, `2>`, `2>>`, `2>&1`, `&>`).
//! * [`substitute`] expands `%s %S %p %t %T %%` inside one word, after quote removal, so a
//!   path containing spaces stays one argument.
//! * [`eval_feature_expr`] evaluates lit's boolean feature expressions (`!`, `&&`, `||`,
//!   parentheses, `*` for "always").
//!
//! Invariant: every function returns `Err(message)` on malformed input; none panics.

/// One logical RUN line (after joining continuations).
#[derive(Clone, Debug)]
pub struct RunLine {
    /// 1-based line number of the first physical line.
    pub line: usize,
    pub text: String,
}

/// What a test file asks of the harness.
#[derive(Clone, Debug, Default)]
pub struct TestSpec {
    pub run_lines: Vec<RunLine>,
    pub xfail: Vec<String>,
    pub unsupported: Vec<String>,
    pub requires: Vec<String>,
}

/// If `line` is a comment whose first token is `KEYWORD:`, returns the text after it.
fn directive<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let t = line.trim_start();
    let t = if let Some(r) = t.strip_prefix("//") {
        r.trim_start_matches('/')
    } else if let Some(r) = t.strip_prefix('#') {
        r
    } else if let Some(r) = t.strip_prefix(';') {
        r.trim_start_matches(';')
    } else {
        return None;
    };
    t.trim_start().strip_prefix(keyword)?.strip_prefix(':')
}

/// Reads the directives of a test file. A file without RUN lines yields an empty
/// `run_lines` (the caller treats it as "not a test").
pub fn parse_test_file(text: &str) -> Result<TestSpec, String> {
    let mut spec = TestSpec::default();
    let mut pending: Option<RunLine> = None;
    for (idx, line) in text.lines().enumerate() {
        let line_no = idx + 1;
        if let Some(body) = directive(line, "RUN") {
            let body = body.trim_end();
            let (content, continues) = match body.strip_suffix('\\') {
                Some(c) => (c, true),
                None => (body, false),
            };
            let run = match pending.take() {
                Some(mut r) => {
                    r.text.push_str(content);
                    r
                }
                None => RunLine { line: line_no, text: content.trim_start().to_string() },
            };
            if continues {
                pending = Some(run);
            } else {
                spec.run_lines.push(run);
            }
            continue;
        }
        if let Some(r) = &pending {
            return Err(format!("RUN line at line {} ends with '\\' but line {line_no} is not a RUN line", r.line));
        }
        for (kw, list) in
            [("XFAIL", &mut spec.xfail), ("UNSUPPORTED", &mut spec.unsupported), ("REQUIRES", &mut spec.requires)]
        {
            if let Some(body) = directive(line, kw) {
                list.extend(body.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()));
            }
        }
    }
    if let Some(r) = pending {
        return Err(format!("RUN line at line {} ends with '\\' at the end of the file", r.line));
    }
    Ok(spec)
}

/// Redirection operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redir {
    /// `< file`
    In,
    /// `> file`
    Out,
    /// `>> file`
    Append,
    /// `2> file`
    Err,
    /// `2>> file`
    ErrAppend,
    /// `2>&1`
    ErrToOut,
    /// `&> file`
    Both,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Word(String),
    Pipe,
    AndAnd,
    OrOr,
    Semi,
    Redir(Redir),
}

/// Splits a RUN line into words and operators.
pub fn lex(s: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let at = |i: usize, pat: &str| -> bool {
        let p: Vec<char> = pat.chars().collect();
        chars.len() >= i + p.len() && chars[i..i + p.len()] == p[..]
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if at(i, ">&") {
            return Err("only '2>&1' is supported for duplicating file descriptors".into());
        }
        // Operators, longest first. We are at the start of a token, so `2>` here is a
        // redirection (as in a POSIX shell), while `a2>f` lexes as `a2`, `>`, `f`.
        let ops: [(&str, Tok); 11] = [
            ("2>&1", Tok::Redir(Redir::ErrToOut)),
            ("2>>", Tok::Redir(Redir::ErrAppend)),
            ("2>", Tok::Redir(Redir::Err)),
            ("&>", Tok::Redir(Redir::Both)),
            ("&&", Tok::AndAnd),
            ("||", Tok::OrOr),
            (">>", Tok::Redir(Redir::Append)),
            (">", Tok::Redir(Redir::Out)),
            ("<", Tok::Redir(Redir::In)),
            ("|", Tok::Pipe),
            (";", Tok::Semi),
        ];
        if let Some((op, tok)) = ops.iter().find(|(op, _)| at(i, op)) {
            toks.push(tok.clone());
            i += op.len();
            continue;
        }
        if c == '&' {
            return Err("background jobs ('&') are not supported in RUN lines".into());
        }
        // A word: runs until whitespace or an operator character outside quotes.
        let mut word = String::new();
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() || matches!(c, '|' | '&' | ';' | '<' | '>') {
                break;
            }
            match c {
                '\'' => {
                    i += 1;
                    loop {
                        match chars.get(i) {
                            None => return Err(format!("unterminated single quote in: {s}")),
                            Some('\'') => break,
                            Some(&ch) => word.push(ch),
                        }
                        i += 1;
                    }
                    i += 1;
                }
                '"' => {
                    i += 1;
                    loop {
                        match chars.get(i) {
                            None => return Err(format!("unterminated double quote in: {s}")),
                            Some('"') => break,
                            Some('\\') if matches!(chars.get(i + 1), Some('"' | '\\' | '$' | '`')) => {
                                word.push(chars[i + 1]);
                                i += 1;
                            }
                            Some(&ch) => word.push(ch),
                        }
                        i += 1;
                    }
                    i += 1;
                }
                '\\' => {
                    match chars.get(i + 1) {
                        Some(&ch) => word.push(ch),
                        None => return Err(format!("dangling backslash in: {s}")),
                    }
                    i += 2;
                }
                _ => {
                    word.push(c);
                    i += 1;
                }
            }
        }
        toks.push(Tok::Word(word));
    }
    Ok(toks)
}

/// A simple command with its redirections, in source order.
#[derive(Clone, Debug, Default)]
pub struct Command {
    pub argv: Vec<String>,
    pub redirs: Vec<(Redir, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct Pipeline {
    pub commands: Vec<Command>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connector {
    /// First pipeline, or after `;`.
    Always,
    And,
    Or,
}

/// A parsed RUN line: `(connector-before, pipeline)` pairs.
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub items: Vec<(Connector, Pipeline)>,
}

/// Parses tokens into a [`Script`].
pub fn parse(tokens: &[Tok]) -> Result<Script, String> {
    let mut script = Script::default();
    let mut pipeline = Pipeline::default();
    let mut cmd = Command::default();
    let mut connector = Connector::Always;
    let mut i = 0;
    let finish_cmd = |cmd: &mut Command, pipeline: &mut Pipeline, what: &str| -> Result<(), String> {
        if cmd.argv.is_empty() {
            return Err(format!("missing command before '{what}'"));
        }
        pipeline.commands.push(std::mem::take(cmd));
        Ok(())
    };
    while i < tokens.len() {
        match &tokens[i] {
            Tok::Word(w) => cmd.argv.push(w.clone()),
            Tok::Redir(Redir::ErrToOut) => cmd.redirs.push((Redir::ErrToOut, String::new())),
            Tok::Redir(r) => match tokens.get(i + 1) {
                Some(Tok::Word(path)) => {
                    cmd.redirs.push((*r, path.clone()));
                    i += 1;
                }
                _ => return Err(format!("redirection {r:?} needs a file name")),
            },
            Tok::Pipe => finish_cmd(&mut cmd, &mut pipeline, "|")?,
            op @ (Tok::AndAnd | Tok::OrOr | Tok::Semi) => {
                let name = match op {
                    Tok::AndAnd => "&&",
                    Tok::OrOr => "||",
                    _ => ";",
                };
                finish_cmd(&mut cmd, &mut pipeline, name)?;
                script.items.push((connector, std::mem::take(&mut pipeline)));
                connector = match op {
                    Tok::AndAnd => Connector::And,
                    Tok::OrOr => Connector::Or,
                    _ => Connector::Always,
                };
            }
        }
        i += 1;
    }
    if cmd.argv.is_empty() {
        if !cmd.redirs.is_empty() || !pipeline.commands.is_empty() || !script.items.is_empty() {
            return Err("RUN line ends without a command".into());
        }
        return Err("empty RUN line".into());
    }
    pipeline.commands.push(cmd);
    script.items.push((connector, pipeline));
    Ok(script)
}

/// Values of the `%` substitutions for one test.
#[derive(Clone, Debug)]
pub struct Substitutions {
    /// `%s`: the test file.
    pub source: String,
    /// `%S`, `%p`: the directory of the test file.
    pub source_dir: String,
    /// `%t`: a temporary file path unique to the test.
    pub temp: String,
    /// `%T`: the directory of `%t`.
    pub temp_dir: String,
}

/// Expands `%s %S %p %t %T %%` in one word; other `%x` sequences are kept as they are.
pub fn substitute(word: &str, subst: &Substitutions) -> String {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('%') => out.push('%'),
            Some('s') => out.push_str(&subst.source),
            Some('S') | Some('p') => out.push_str(&subst.source_dir),
            Some('t') => out.push_str(&subst.temp),
            Some('T') => out.push_str(&subst.temp_dir),
            _ => {
                out.push('%');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// Applies [`substitute`] to every word and redirection target of a script.
pub fn substitute_script(script: &mut Script, subst: &Substitutions) {
    for (_, pipeline) in &mut script.items {
        for cmd in &mut pipeline.commands {
            for w in &mut cmd.argv {
                *w = substitute(w, subst);
            }
            for (_, path) in &mut cmd.redirs {
                *path = substitute(path, subst);
            }
        }
    }
}

/// Quotes a word for display so that the printed command can be pasted into a shell.
pub fn shell_quote(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%^".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// Renders a command back to shell text (for logs).
pub fn display_command(cmd: &Command) -> String {
    let mut parts: Vec<String> = cmd.argv.iter().map(|w| shell_quote(w)).collect();
    for (r, path) in &cmd.redirs {
        let op = match r {
            Redir::In => "<",
            Redir::Out => ">",
            Redir::Append => ">>",
            Redir::Err => "2>",
            Redir::ErrAppend => "2>>",
            Redir::ErrToOut => "2>&1",
            Redir::Both => "&>",
        };
        if *r == Redir::ErrToOut {
            parts.push(op.to_string());
        } else {
            parts.push(format!("{op} {}", shell_quote(path)));
        }
    }
    parts.join(" ")
}

/// Evaluates a lit feature expression: identifiers, `true`, `false`, `*`, `!`, `&&`,
/// `||` and parentheses. `has` says whether a feature is available.
pub fn eval_feature_expr(expr: &str, has: &dyn Fn(&str) -> bool) -> Result<bool, String> {
    let mut toks = Vec::new();
    let cs: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '(' || c == ')' || c == '!' {
            toks.push(c.to_string());
            i += 1;
        } else if (c == '&' || c == '|') && cs.get(i + 1) == Some(&c) {
            toks.push(format!("{c}{c}"));
            i += 2;
        } else if c.is_alphanumeric() || "*_-+.=/:".contains(c) {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || "*_-+.=/:".contains(cs[i])) {
                i += 1;
            }
            toks.push(cs[start..i].iter().collect());
        } else {
            return Err(format!("unexpected character '{c}' in feature expression '{expr}'"));
        }
    }
    struct P<'a> {
        toks: &'a [String],
        pos: usize,
        has: &'a dyn Fn(&str) -> bool,
        expr: &'a str,
    }
    impl P<'_> {
        fn peek(&self) -> Option<&str> {
            self.toks.get(self.pos).map(String::as_str)
        }
        fn or(&mut self) -> Result<bool, String> {
            let mut v = self.and()?;
            while self.peek() == Some("||") {
                self.pos += 1;
                let r = self.and()?;
                v = v || r;
            }
            Ok(v)
        }
        fn and(&mut self) -> Result<bool, String> {
            let mut v = self.not()?;
            while self.peek() == Some("&&") {
                self.pos += 1;
                let r = self.not()?;
                v = v && r;
            }
            Ok(v)
        }
        fn not(&mut self) -> Result<bool, String> {
            if self.peek() == Some("!") {
                self.pos += 1;
                return Ok(!self.not()?);
            }
            self.atom()
        }
        fn atom(&mut self) -> Result<bool, String> {
            let toks = self.toks;
            let t = toks
                .get(self.pos)
                .map(String::as_str)
                .ok_or_else(|| format!("incomplete feature expression '{}'", self.expr))?;
            self.pos += 1;
            match t {
                "(" => {
                    let v = self.or()?;
                    if self.peek() != Some(")") {
                        return Err(format!("missing ')' in feature expression '{}'", self.expr));
                    }
                    self.pos += 1;
                    Ok(v)
                }
                "true" | "*" => Ok(true),
                "false" => Ok(false),
                ")" | "&&" | "||" => Err(format!("unexpected '{t}' in feature expression '{}'", self.expr)),
                name => Ok((self.has)(name)),
            }
        }
    }
    let mut p = P { toks: &toks, pos: 0, has, expr };
    let v = p.or()?;
    if p.pos != toks.len() {
        return Err(format!("trailing tokens in feature expression '{expr}'"));
    }
    Ok(v)
}
