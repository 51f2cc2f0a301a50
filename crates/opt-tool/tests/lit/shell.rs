//! The mini shell that executes parsed RUN lines (no `/bin/sh` involved).
//!
//! Semantics (lit's internal shell, with `pipefail`):
//!
//! * Pipeline stages run one after another; each stage's stdin is the previous stage's
//!   stdout, collected in memory (tests produce small outputs). The first stage reads an
//!   empty stdin unless redirected with `<`.
//! * A pipeline succeeds only if *every* stage exits with status 0 (`pipefail`).
//!   `a && b`, `a || b` and `a ; b` behave as in a POSIX shell; a RUN line fails when its
//!   last executed pipeline fails, and a test stops at its first failing RUN line.
//! * Redirections are applied in order (`> f 2>&1` sends both streams to `f`;
//!   `2>&1 | ...` merges stderr into the pipe, with the real interleaving for processes).
//!   Relative paths resolve against the per-test temporary directory, which is also the
//!   working directory of every command.
//! * Built-ins: `FileCheck` (in-process engine, or the binary named by `FUSER_FILECHECK`),
//!   `not [--crash]`, `count N`, `cat`, `echo [-n] [-e]`, `diff`, `true`, `false`,
//!   `rm [-f] [-r]` (only inside the harness temp root), `mkdir [-p]`.
//!   `fuser-opt` is the binary cargo built for this test; anything else is looked up on
//!   `PATH` (`mlir-opt` falls back to `mlir-opt-19`).
//! * `not` inverts the exit status but treats a crash (killed by a signal, or a Rust
//!   panic's exit status 101) as a failure, like LLVM's `not`; `not --crash` succeeds only
//!   on a crash.
//! * External processes get a timeout (`FUSER_LIT_TIMEOUT` seconds, default 300).
//!
//! Invariant: a problem of the harness or of the RUN line itself (unknown command,
//! unreadable file, timeout) is an `Err` that fails the test even under `not`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use super::filecheck;
use super::run_line::{Command, Connector, Pipeline, Redir, Script, display_command, shell_quote};

/// Per-test execution environment.
pub struct Context {
    /// Trial name, for verbose logs.
    pub name: String,
    /// Working directory of every command (the per-test temp directory).
    pub cwd: PathBuf,
    /// Root under which `rm` may delete.
    pub tmp_root: PathBuf,
    /// External FileCheck to use instead of the in-process engine.
    pub external_filecheck: Option<PathBuf>,
    pub verbose: bool,
    pub timeout: Duration,
    /// Transcript of what ran, for the failure report.
    pub log: String,
}

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Code(i32),
    Signal(i32),
}

impl Status {
    fn success(self) -> bool {
        self == Status::Code(0)
    }
    fn crashed(self) -> bool {
        matches!(self, Status::Signal(_) | Status::Code(101))
    }
    fn describe(self) -> String {
        match self {
            Status::Code(101) => "exit status 101 (a Rust panic)".to_string(),
            Status::Code(c) => format!("exit status {c}"),
            Status::Signal(s) => format!("killed by signal {s}"),
        }
    }
}

/// Output of one command.
struct Output {
    status: Status,
    stdout: Vec<u8>,
    /// Empty when stderr was merged into stdout.
    stderr: Vec<u8>,
}

type ShellResult<T> = Result<T, String>;

const LOG_LIMIT: usize = 64 * 1024;

fn clip(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= LOG_LIMIT {
        return text.into_owned();
    }
    let mut cut = LOG_LIMIT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}\n... ({} more bytes)", &text[..cut], text.len() - cut)
}

fn indent(text: &str) -> String {
    let mut out = String::new();
    for line in text.trim_end_matches('\n').lines() {
        out.push_str("# | ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

impl Context {
    fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() { p.to_path_buf() } else { self.cwd.join(p) }
    }

    /// Runs a whole RUN line. `Ok(true)` when it succeeded.
    pub fn run_script(&mut self, script: &Script) -> ShellResult<bool> {
        let mut last_ok = true;
        for (conn, pipeline) in &script.items {
            let run = match conn {
                Connector::Always => true,
                Connector::And => last_ok,
                Connector::Or => !last_ok,
            };
            if run {
                last_ok = self.run_pipeline(pipeline)?;
            }
        }
        Ok(last_ok)
    }

    fn run_pipeline(&mut self, pipeline: &Pipeline) -> ShellResult<bool> {
        let text = pipeline.commands.iter().map(display_command).collect::<Vec<_>>().join(" | ");
        if self.verbose {
            eprintln!("[{}] $ {text}", self.name);
        }
        let mut input: Vec<u8> = Vec::new();
        let mut all_ok = true;
        let n = pipeline.commands.len();
        for (k, cmd) in pipeline.commands.iter().enumerate() {
            self.log.push_str(&format!("$ {}\n", display_command(cmd)));
            let (status, out, err) = self.run_command(cmd, std::mem::take(&mut input))?;
            self.log.push_str(&format!("# {}\n", status.describe()));
            if !err.is_empty() {
                self.log.push_str("# stderr:\n");
                self.log.push_str(&indent(&clip(&err)));
            }
            if !status.success() {
                all_ok = false;
            }
            if k + 1 == n {
                if !out.is_empty() {
                    self.log.push_str("# stdout:\n");
                    self.log.push_str(&indent(&clip(&out)));
                }
            } else {
                input = out;
            }
        }
        Ok(all_ok)
    }

    /// Runs one command with its redirections; returns its status, what goes down the
    /// pipe (stdout, plus stderr if merged into it), and the stderr left for the log.
    fn run_command(&mut self, cmd: &Command, pipe_in: Vec<u8>) -> ShellResult<(Status, Vec<u8>, Vec<u8>)> {
        #[derive(Clone, PartialEq)]
        enum Target {
            Pipe,
            Capture,
            File(PathBuf, bool),
        }
        let mut stdin = pipe_in;
        let mut out_t = Target::Pipe;
        let mut err_t = Target::Capture;
        for (r, path) in &cmd.redirs {
            match r {
                Redir::In => {
                    let p = self.resolve(path);
                    stdin = std::fs::read(&p).map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
                }
                Redir::Out => out_t = Target::File(self.resolve(path), false),
                Redir::Append => out_t = Target::File(self.resolve(path), true),
                Redir::Err => err_t = Target::File(self.resolve(path), false),
                Redir::ErrAppend => err_t = Target::File(self.resolve(path), true),
                Redir::ErrToOut => err_t = out_t.clone(),
                Redir::Both => {
                    out_t = Target::File(self.resolve(path), false);
                    err_t = out_t.clone();
                }
            }
        }
        let merge = out_t == err_t;
        let output = self.exec(&cmd.argv, stdin, merge)?;
        let write = |t: &Target, bytes: &[u8]| -> ShellResult<()> {
            if let Target::File(p, append) = t {
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .write(true)
                    .append(*append)
                    .truncate(!*append)
                    .open(p)
                    .map_err(|e| format!("cannot write '{}': {e}", p.display()))?;
                f.write_all(bytes).map_err(|e| format!("cannot write '{}': {e}", p.display()))?;
            }
            Ok(())
        };
        write(&out_t, &output.stdout)?;
        let mut logged_err = Vec::new();
        if !merge {
            write(&err_t, &output.stderr)?;
            if err_t == Target::Capture {
                logged_err = output.stderr;
            }
        }
        let piped = if out_t == Target::Pipe { output.stdout } else { Vec::new() };
        Ok((output.status, piped, logged_err))
    }

    /// Executes argv (built-in or external).
    fn exec(&mut self, argv: &[String], stdin: Vec<u8>, merge: bool) -> ShellResult<Output> {
        let Some(name) = argv.first() else {
            return Err("empty command".into());
        };
        let args = &argv[1..];
        let builtin = |status: i32, stdout: Vec<u8>, stderr: Vec<u8>| -> Output {
            if merge {
                let mut all = stdout;
                all.extend(stderr);
                Output { status: Status::Code(status), stdout: all, stderr: Vec::new() }
            } else {
                Output { status: Status::Code(status), stdout, stderr }
            }
        };
        match name.as_str() {
            "not" => {
                let (crash, rest) = match args.first().map(String::as_str) {
                    Some("--crash") => (true, &args[1..]),
                    _ => (false, args),
                };
                if rest.is_empty() {
                    return Err("'not' needs a command".into());
                }
                let mut inner = self.exec(rest, stdin, merge)?;
                let ok =
                    if crash { inner.status.crashed() } else { !inner.status.success() && !inner.status.crashed() };
                if !crash && inner.status.crashed() {
                    let note = format!(
                        "not: '{}' crashed ({}); `not` only inverts ordinary failures, use `not --crash` to expect a crash\n",
                        rest[0],
                        inner.status.describe()
                    );
                    let sink = if merge { &mut inner.stdout } else { &mut inner.stderr };
                    sink.extend_from_slice(note.as_bytes());
                }
                inner.status = Status::Code(if ok { 0 } else { 1 });
                Ok(inner)
            }
            "FileCheck" => {
                if let Some(path) = self.external_filecheck.clone() {
                    return self.spawn(&path, args, stdin, merge);
                }
                let (code, err) = self.filecheck(args, &stdin);
                Ok(builtin(code, Vec::new(), err.into_bytes()))
            }
            "count" => {
                let expected: Option<usize> = match args {
                    [n] => n.parse().ok(),
                    _ => None,
                };
                let Some(expected) = expected else {
                    return Err("usage: count N".into());
                };
                let got = stdin.iter().filter(|&&b| b == b'\n').count();
                if got == expected {
                    Ok(builtin(0, Vec::new(), Vec::new()))
                } else {
                    Ok(builtin(1, Vec::new(), format!("Expected {expected} lines, got {got}.\n").into_bytes()))
                }
            }
            "cat" => {
                let mut out = Vec::new();
                let files: Vec<&String> = args.iter().collect();
                if files.is_empty() {
                    out.extend_from_slice(&stdin);
                }
                for f in files {
                    if f == "-" {
                        out.extend_from_slice(&stdin);
                        continue;
                    }
                    let p = self.resolve(f);
                    match std::fs::read(&p) {
                        Ok(b) => out.extend(b),
                        Err(e) => {
                            return Ok(builtin(1, out, format!("cat: {f}: {e}\n").into_bytes()));
                        }
                    }
                }
                Ok(builtin(0, out, Vec::new()))
            }
            "echo" => {
                let mut newline = true;
                let mut escapes = false;
                let mut rest = args;
                while let Some(flag) = rest.first() {
                    match flag.as_str() {
                        "-n" => newline = false,
                        "-e" => escapes = true,
                        "-en" | "-ne" => {
                            newline = false;
                            escapes = true;
                        }
                        _ => break,
                    }
                    rest = &rest[1..];
                }
                let mut text = rest.join(" ");
                if escapes {
                    text = text.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\");
                }
                if newline {
                    text.push('\n');
                }
                Ok(builtin(0, text.into_bytes(), Vec::new()))
            }
            "true" | ":" => Ok(builtin(0, Vec::new(), Vec::new())),
            "false" => Ok(builtin(1, Vec::new(), Vec::new())),
            "diff" => {
                let files: Vec<&String> = args.iter().filter(|a| !a.starts_with('-') || *a == "-").collect();
                let [a, b] = files[..] else {
                    return Err("usage: diff [-u] FILE1 FILE2".into());
                };
                let read = |f: &str| -> ShellResult<Vec<u8>> {
                    if f == "-" {
                        return Ok(stdin.clone());
                    }
                    let p = self.resolve(f);
                    std::fs::read(&p).map_err(|e| format!("diff: cannot read '{}': {e}", p.display()))
                };
                let (x, y) = (read(a)?, read(b)?);
                if x == y {
                    return Ok(builtin(0, Vec::new(), Vec::new()));
                }
                let (xs, ys) = (String::from_utf8_lossy(&x), String::from_utf8_lossy(&y));
                let (xl, yl): (Vec<&str>, Vec<&str>) = (xs.lines().collect(), ys.lines().collect());
                let first = xl.iter().zip(&yl).position(|(p, q)| p != q).unwrap_or(xl.len().min(yl.len()));
                let msg = format!(
                    "--- {a}\n+++ {b}\nfirst difference at line {}:\n-{}\n+{}\n",
                    first + 1,
                    xl.get(first).unwrap_or(&"<end of file>"),
                    yl.get(first).unwrap_or(&"<end of file>")
                );
                Ok(builtin(1, msg.into_bytes(), Vec::new()))
            }
            "rm" => {
                for a in args.iter().filter(|a| !a.starts_with('-')) {
                    let p = self.resolve(a);
                    if !p.starts_with(&self.tmp_root) || p.components().any(|c| c.as_os_str() == "..") {
                        return Err(format!(
                            "rm: refusing to delete '{}' outside {}",
                            p.display(),
                            self.tmp_root.display()
                        ));
                    }
                    let r = if p.is_dir() { std::fs::remove_dir_all(&p) } else { std::fs::remove_file(&p) };
                    if let Err(e) = r
                        && !args.iter().any(|f| f.starts_with('-') && f.contains('f'))
                    {
                        return Ok(builtin(1, Vec::new(), format!("rm: {a}: {e}\n").into_bytes()));
                    }
                }
                Ok(builtin(0, Vec::new(), Vec::new()))
            }
            "mkdir" => {
                for a in args.iter().filter(|a| !a.starts_with('-')) {
                    if let Err(e) = std::fs::create_dir_all(self.resolve(a)) {
                        return Ok(builtin(1, Vec::new(), format!("mkdir: {a}: {e}\n").into_bytes()));
                    }
                }
                Ok(builtin(0, Vec::new(), Vec::new()))
            }
            _ => {
                let path = resolve_program(name)?;
                self.spawn(&path, args, stdin, merge)
            }
        }
    }

    /// The in-process FileCheck: returns (exit status, stderr text).
    fn filecheck(&self, args: &[String], stdin: &[u8]) -> (i32, String) {
        let opts = match filecheck::parse_args(args) {
            Ok(o) => o,
            Err(e) => return (2, format!("{e}\n")),
        };
        let check_arg = opts.check_file.clone().unwrap_or_default();
        let check_path = self.resolve(&check_arg);
        let check_text = match std::fs::read(&check_path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                return (2, format!("FileCheck: cannot read check file '{}': {e}\n", check_path.display()));
            }
        };
        let (input_name, input_text) = match &opts.input_file {
            Some(f) if f != "-" => {
                let p = self.resolve(f);
                match std::fs::read(&p) {
                    Ok(b) => (f.clone(), String::from_utf8_lossy(&b).into_owned()),
                    Err(e) => {
                        return (2, format!("FileCheck: cannot read input file '{}': {e}\n", p.display()));
                    }
                }
            }
            _ => ("<stdin>".to_string(), String::from_utf8_lossy(stdin).into_owned()),
        };
        let outcome = filecheck::run(&opts, &check_arg, &check_text, &input_name, &input_text);
        (outcome.code, outcome.stderr)
    }

    /// Runs an external program with a timeout, feeding `stdin` and collecting output.
    fn spawn(&mut self, path: &Path, args: &[String], stdin: Vec<u8>, merge: bool) -> ShellResult<Output> {
        let fail = |e: std::io::Error| format!("cannot run '{}': {e}", path.display());
        let mut process = Process::new(path);
        process.args(args).current_dir(&self.cwd).stdin(Stdio::piped());
        let mut merged_reader = None;
        if merge {
            let (reader, writer) = std::io::pipe().map_err(fail)?;
            process.stdout(writer.try_clone().map_err(fail)?).stderr(writer);
            merged_reader = Some(reader);
        } else {
            process.stdout(Stdio::piped()).stderr(Stdio::piped());
        }
        let mut child = process.spawn().map_err(fail)?;
        // Close our copies of the pipe's write end, or the reader never sees EOF.
        drop(process);
        let mut child_in = child.stdin.take();
        let writer = std::thread::spawn(move || {
            if let Some(w) = child_in.as_mut() {
                let _ = w.write_all(&stdin);
            }
        });
        let read_all = |mut r: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = r.read_to_end(&mut buf);
                buf
            })
        };
        let (out_thread, err_thread) = match merged_reader {
            Some(r) => (read_all(Box::new(r)), None),
            None => {
                let o = child.stdout.take().map(|o| read_all(Box::new(o)));
                let e = child.stderr.take().map(|e| read_all(Box::new(e)));
                match o {
                    Some(o) => (o, e),
                    None => return Err(format!("cannot capture output of '{}'", path.display())),
                }
            }
        };
        let started = Instant::now();
        let mut sleep = Duration::from_micros(200);
        let status = loop {
            match child.try_wait().map_err(fail)? {
                Some(s) => break s,
                None if started.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "'{}' timed out after {} s (set FUSER_LIT_TIMEOUT to change)",
                        path.display(),
                        self.timeout.as_secs()
                    ));
                }
                None => {
                    std::thread::sleep(sleep);
                    sleep = (sleep * 2).min(Duration::from_millis(20));
                }
            }
        };
        let _ = writer.join();
        let stdout = out_thread.join().unwrap_or_default();
        let stderr = err_thread.map(|t| t.join().unwrap_or_default()).unwrap_or_default();
        use std::os::unix::process::ExitStatusExt;
        let status = match (status.code(), status.signal()) {
            (Some(c), _) => Status::Code(c),
            (None, Some(s)) => Status::Signal(s),
            (None, None) => Status::Code(-1),
        };
        Ok(Output { status, stdout, stderr })
    }
}

/// Path of a non-built-in command.
fn resolve_program(name: &str) -> ShellResult<PathBuf> {
    match name {
        "fuser-opt" => return Ok(PathBuf::from(env!("CARGO_BIN_EXE_fuser-opt"))),
        "fuser-run" => {
            return option_env!("CARGO_BIN_EXE_fuser-run")
                .map(PathBuf::from)
                .ok_or_else(|| "fuser-run is not a binary of this package (yet)".to_string());
        }
        _ => {}
    }
    if name.contains('/') {
        let p = PathBuf::from(name);
        return if p.is_file() { Ok(p) } else { Err(format!("command not found: {name}")) };
    }
    let candidates: Vec<&str> = if name == "mlir-opt" { vec!["mlir-opt", "mlir-opt-19"] } else { vec![name] };
    for c in &candidates {
        if let Some(p) = find_on_path(c) {
            return Ok(p);
        }
    }
    Err(format!(
        "command not found: {} (not a lit built-in, and not on PATH; tests that need it should say \
         '// REQUIRES: {name}')",
        shell_quote(name)
    ))
}

/// Looks a program up on `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}
