//! The work of `fuser-opt` once its flags are parsed: build the pass pipeline, read and split
//! the input, and for each chunk parse, verify, run the pipeline, then print the result or
//! check the diagnostics against `expected-*` comments.
//!
//! Output goes to the `-o` file or stdout; IR dumps, diagnostics and timing reports go to
//! stderr. The returned bool is overall success (exit status 0).

use crate::cli::Options;
use crate::io_error::io_error_text;
use crate::services;
use fuser_ir::diag::{SourceFile, SourceMgr, render};
use fuser_ir::pass::adapters::{self, IrPrintFlags};
use fuser_ir::pass::{
    LogEntry, OpPassManager, PassFilter, PassManager, PassManagerConfig, PassRegistry, PipelineError, TimingNode,
};
use fuser_ir::printer::{PrintOptions, print_module_to};
use fuser_ir::{Context, Diagnostic, split, verify_diagnostics};
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Instant;

/// Runs the tool; diagnostics are printed here. Returns success.
pub fn run(opts: &Options, passes: &PassRegistry, tool: &str) -> bool {
    let pipeline = match build_pipeline(opts, passes) {
        Ok(pm) => pm,
        Err(message) => {
            eprint!("{}", render_plain(&message));
            return false;
        }
    };
    if opts.dump_pass_pipeline {
        eprint!("Pass Manager with {} passes:\n{}\n\n", pipeline.len(), pipeline.to_pipeline_string());
    }
    let text = match read_input(&opts.input) {
        Ok(t) => t,
        Err(e) => {
            // mlir-opt's words: no tool name, the system's message.
            eprintln!("cannot open input file '{}': {}", opts.input, io_error_text(&e));
            return false;
        }
    };
    let name = if opts.input == "-" { "<stdin>".to_string() } else { opts.input.clone() };
    let text = match text {
        Ok(t) => t,
        Err(bad) => {
            eprint!("{}", invalid_utf8_diagnostic(&name, &bad));
            return false;
        }
    };
    let manager = PassManager { pipeline, config: pass_config(opts) };
    let mut sink = match open_output(&opts.output) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cannot open output file '{}': {}", opts.output, io_error_text(&e));
            return false;
        }
    };
    let mut ok = true;
    match &opts.split_input {
        None => ok &= process_chunk(opts, passes, &manager, SourceFile::new(name, text), &mut sink),
        Some(marker) => {
            let chunks = split::split_input(&text, marker);
            drop(text);
            for (i, chunk) in chunks.into_iter().enumerate() {
                if i > 0 {
                    sink.write(split::OUTPUT_SEPARATOR.as_bytes());
                }
                let source = SourceFile::new(chunk.buffer_name(&name), Arc::from(chunk.text));
                // A chunk that fails prints nothing; a printed module ends with an empty line.
                ok &= process_chunk(opts, passes, &manager, source, &mut sink);
            }
        }
    }
    sink.finish(&opts.output, tool) && ok
}

/// A diagnostic without location, rendered like MLIR's `<unknown>:0: error: ...`.
fn render_plain(message: &str) -> String {
    let ctx = Context::empty();
    render(&ctx, &SourceMgr::new(), &Diagnostic::error(ctx.unknown_loc(), message))
}

/// The pipeline from `--pass-pipeline` or from pass flags (a `builtin.module` pipeline; see
/// [`root_pipeline`] for `--no-implicit-module`).
fn build_pipeline(opts: &Options, passes: &PassRegistry) -> Result<OpPassManager, String> {
    let render_err = |e: PipelineError| e.to_string();
    if let Some(text) = &opts.pass_pipeline {
        if !opts.pass_flags.is_empty() {
            return Err("'-pass-pipeline' option can't be used with individual pass options".to_string());
        }
        return OpPassManager::parse(text, passes).map_err(render_err);
    }
    let mut pm = OpPassManager::new("builtin.module");
    for (name, options) in &opts.pass_flags {
        let element = if options.is_empty() { name.clone() } else { format!("{name}{{{options}}}") };
        pm.add_pipeline_text(&element, passes).map_err(render_err)?;
    }
    Ok(pm)
}

/// Under `--no-implicit-module` the root may be any op, and mlir-opt anchors the pass flags on
/// it: the flags' pipeline re-anchored on the op named `root` (`None` when the pipeline comes
/// from `--pass-pipeline`, whose anchor is explicit, or when the root is an implicit module).
fn root_pipeline(opts: &Options, passes: &PassRegistry, root: &str) -> Option<PassManager> {
    if !opts.no_implicit_module || opts.pass_pipeline.is_some() {
        return None;
    }
    // The flags were already parsed once by `run`, so this cannot fail.
    let mut pipeline = build_pipeline(opts, passes).ok()?;
    pipeline.set_anchor(root);
    Some(PassManager { pipeline, config: pass_config(opts) })
}

fn pass_config(opts: &Options) -> PassManagerConfig {
    let mut c = PassManagerConfig {
        threading: !opts.disable_threading,
        verify_each: opts.verify_each,
        // mlir-opt turns the notes off under --verify-diagnostics, whatever the flag says.
        print_op_on_diagnostic: opts.print_op_on_diagnostic && !opts.verify_diagnostics,
        timing: opts.timing,
        crash_reproducer: opts.crash_reproducer.clone(),
        ..Default::default()
    };
    let p = &mut c.ir_printing;
    p.before = if opts.print_before_all { PassFilter::All } else { PassFilter::None };
    if !opts.print_before_all {
        p.before.add_names(opts.print_before.iter().cloned());
    }
    p.after = if opts.print_after_all { PassFilter::All } else { PassFilter::None };
    if !opts.print_after_all {
        p.after.add_names(opts.print_after.iter().cloned());
    }
    if p.before == PassFilter::Names(Vec::new()) {
        p.before = PassFilter::None;
    }
    if p.after == PassFilter::Names(Vec::new()) {
        p.after = PassFilter::None;
    }
    p.after_only_on_change = opts.print_after_change;
    p.after_failure = opts.print_after_failure;
    p.flags = print_flags(opts);
    c
}

fn print_flags(opts: &Options) -> IrPrintFlags {
    IrPrintFlags {
        generic: opts.print_generic,
        debug_info: opts.print_debuginfo,
        local_scope: opts.print_local_scope,
        pretty_debug_info: opts.print_pretty_debuginfo,
        elements_hex_if_larger: opts.print_hex_if_larger,
        unique_ssa_ids: opts.print_unique_ssa_ids,
        value_users: opts.print_value_users,
        elide_resource_strings_if_larger: opts.elide_resource_strings_if_larger,
        elide_elements_attrs_if_larger: opts.elide_elements_if_larger.map(|n| n as usize),
        assume_verified: opts.print_assume_verified,
    }
}

/// Parses, verifies, runs and prints one buffer; returns success.
fn process_chunk(
    opts: &Options,
    passes: &PassRegistry,
    manager: &PassManager,
    source: SourceFile,
    sink: &mut OutputSink,
) -> bool {
    let ctx = Context::new(services::dialect_registry());
    ctx.set_allow_unregistered(opts.allow_unregistered);
    ctx.set_value_users_in_notes(opts.print_value_users);
    ctx.set_debug_info_in_notes(opts.print_debuginfo, opts.print_pretty_debuginfo);
    let mut sources = SourceMgr::new();
    sources.add(source.clone());
    let mut timing = TimingNode::new("root");
    let start = Instant::now();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let report = |d: &Diagnostic, diags: &mut Vec<Diagnostic>| {
        if opts.verify_diagnostics {
            diags.push(d.clone());
        } else if !opts.print_op_on_diagnostic {
            eprint!("{}", render(&ctx, &sources, &without_current_op_note(d.clone())));
        } else {
            eprint!("{}", render(&ctx, &sources, d));
        }
    };

    let parsed = services::parse_source_with(&ctx, &source, !opts.no_implicit_module).and_then(|(ir, op)| {
        match adapters::verify_op(&ctx, &ir, op) {
            Ok(()) => Ok((ir, op)),
            Err(errors) => Err(errors),
        }
    });
    timing.child_mut("Parser").add(start.elapsed());
    let mut success = false;
    match parsed {
        Err(errors) => errors.iter().for_each(|d| report(d, &mut diags)),
        Ok((mut ir, op)) => {
            let root = ctx.op_name_str(ir.op_name(op)).to_string();
            let result = match root_pipeline(opts, passes, &root) {
                Some(on_root) => on_root.run(&ctx, &mut ir, op),
                None => manager.run(&ctx, &mut ir, op),
            };
            for entry in &result.log {
                match entry {
                    LogEntry::Text(t) => eprint!("{t}"),
                    LogEntry::Diagnostic(d) => report(d, &mut diags),
                }
            }
            if let Some(t) = result.timing {
                for child in t.children {
                    timing.children.push(child);
                }
            }
            if result.success {
                let out_start = Instant::now();
                let mut print_opts =
                    PrintOptions { skip_regions: opts.print_skip_regions, ..print_flags(opts).print_options() };
                // The parser verified the input and --verify-each every pass's output; only
                // without it may a pass have left IR that fails to verify (printed generically,
                // as mlir-opt does, unless --mlir-print-assume-verified).
                if !opts.verify_each && !manager.pipeline.is_empty() {
                    print_opts.generic |= adapters::needs_generic_fallback(&ctx, &ir, op, &print_opts);
                }
                sink.print_module(&ctx, &ir, op, &print_opts);
                timing.child_mut("Output").add(out_start.elapsed());
                success = true;
            }
        }
    }
    if opts.timing {
        timing.add(start.elapsed());
        eprint!("{}", timing.report(!opts.disable_threading));
    }
    if !opts.verify_diagnostics {
        return success;
    }
    match verify_diagnostics::check(&source, &without_current_op_notes(diags), &ctx) {
        Ok(()) => true,
        Err(messages) => {
            for m in messages {
                // Rendered diagnostics end with their own newline.
                if m.ends_with('\n') {
                    eprint!("{m}");
                } else {
                    eprintln!("{m}");
                }
            }
            false
        }
    }
}

/// mlir-opt turns off "see current operation" notes under `--verify-diagnostics`.
fn without_current_op_notes(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.into_iter().map(without_current_op_note).collect()
}

/// `d` without its "see current operation" notes (`--mlir-print-op-on-diagnostic=false`).
fn without_current_op_note(mut d: Diagnostic) -> Diagnostic {
    d.notes.retain(|n| !adapters::is_current_op_note(n));
    d
}

/// Reads the whole input into one shared buffer (a file is read straight into it: a large
/// input is held in memory once, not twice). Input that is not UTF-8 comes back as
/// `Ok(Err(InvalidUtf8))`.
fn read_input(path: &str) -> std::io::Result<Result<Arc<str>, InvalidUtf8>> {
    let bytes: Arc<[u8]> = if path == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        Arc::from(v)
    } else {
        read_file_shared(path)?
    };
    if let Err(e) = std::str::from_utf8(&bytes) {
        return Ok(Err(InvalidUtf8 { bad_at: e.valid_up_to(), bytes }));
    }
    // SAFETY: `str` and `[u8]` have the same layout, and the bytes were just checked to be
    // valid UTF-8.
    Ok(Ok(unsafe { Arc::from_raw(Arc::into_raw(bytes) as *const str) }))
}

/// Input bytes that are not UTF-8, and the offset of the first bad byte.
struct InvalidUtf8 {
    bytes: Arc<[u8]>,
    bad_at: usize,
}

/// fuser reads UTF-8 source text only (mlir-opt also accepts other bytes in comments and
/// strings): an error at the first byte that is not UTF-8, showing its line.
fn invalid_utf8_diagnostic(name: &str, input: &InvalidUtf8) -> String {
    let (bytes, bad_at) = (&input.bytes[..], input.bad_at);
    let ctx = Context::empty();
    let shown = String::from_utf8_lossy(bytes);
    let line_start = bytes[..bad_at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = bytes[..bad_at].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let col = (bad_at - line_start) as u32 + 1;
    let mut sources = SourceMgr::new();
    sources.add(SourceFile::new(name, Arc::from(shown.as_ref())));
    let loc = ctx.file_loc(name, line, col);
    render(&ctx, &sources, &Diagnostic::error(loc, "input is not valid UTF-8"))
}

fn read_file_shared(path: &str) -> std::io::Result<Arc<[u8]>> {
    let mut file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).unwrap_or(0);
    let mut buf: Arc<[std::mem::MaybeUninit<u8>]> = Arc::new_uninit_slice(len);
    let slots = Arc::get_mut(&mut buf).expect("a new Arc is unique");
    slots.fill(std::mem::MaybeUninit::new(0));
    // SAFETY: every element was initialized just above.
    let mut buf: Arc<[u8]> = unsafe { buf.assume_init() };
    let slice = Arc::get_mut(&mut buf).expect("a new Arc is unique");
    let mut filled = 0;
    while filled < slice.len() {
        match file.read(&mut slice[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    if filled < len {
        return Ok(Arc::from(&buf[..filled]));
    }
    // The file may have grown since its size was read: take the rest too.
    let mut rest = Vec::new();
    file.read_to_end(&mut rest)?;
    if rest.is_empty() {
        return Ok(buf);
    }
    let mut all = buf.to_vec();
    all.extend_from_slice(&rest);
    Ok(Arc::from(all))
}

/// The output file or stdout, written as the printer produces text. The first write error is
/// kept and reported once, at the end; a closed pipe (e.g. `| head`) is not an error.
struct OutputSink {
    writer: Box<dyn Write>,
    error: Option<std::io::Error>,
}

fn open_output(path: &str) -> std::io::Result<OutputSink> {
    let writer: Box<dyn Write> = if path == "-" {
        Box::new(std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()))
    } else {
        Box::new(std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(path)?))
    };
    Ok(OutputSink { writer, error: None })
}

impl OutputSink {
    fn write(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(e) = self.writer.write_all(bytes)
        {
            self.error = Some(e);
        }
    }

    fn print_module(&mut self, ctx: &Context, ir: &fuser_ir::Ir, op: fuser_ir::OpId, opts: &PrintOptions) {
        if self.error.is_none()
            && let Err(e) = print_module_to(ctx, ir, op, opts, &mut self.writer)
        {
            self.error = Some(e);
        }
    }

    /// Flushes; returns false (after reporting) on a write error other than a closed pipe.
    fn finish(mut self, path: &str, tool: &str) -> bool {
        if self.error.is_none()
            && let Err(e) = self.writer.flush()
        {
            self.error = Some(e);
        }
        match self.error {
            None => true,
            Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => true,
            Some(e) => {
                eprintln!("{tool}: cannot write output '{path}': {e}");
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::pass::adapters::print_op;

    /// A module whose `func.return` got an extra operand after parsing (what a pass could leave
    /// under `--verify-each=0`): it no longer verifies.
    fn invalid_module(ctx: &Context) -> (fuser_ir::Ir, fuser_ir::OpId) {
        let text = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n";
        let source = SourceFile::new("f.mlir", Arc::from(text));
        let (mut ir, module) = services::parse_source_with(ctx, &source, true).expect("valid input");
        let ops = ir.collect_ops(module, fuser_ir::ir::WalkOrder::PreOrder);
        let ret = *ops.last().expect("func.return");
        let arg = ir.operand(ops[ops.len() - 2], 0);
        ir.insert_operand(ret, 1, arg);
        assert!(adapters::verify_op(ctx, &ir, module).is_err());
        (ir, module)
    }

    #[test]
    fn invalid_ir_prints_generic_unless_assumed_verified() {
        let ctx = Context::new(services::dialect_registry());
        let (ir, module) = invalid_module(&ctx);
        let generic = print_op(&ctx, &ir, module, &IrPrintFlags { generic: true, ..IrPrintFlags::default() });
        assert_eq!(print_op(&ctx, &ir, module, &IrPrintFlags::default()), generic);
        let assumed = print_op(&ctx, &ir, module, &IrPrintFlags { assume_verified: true, ..IrPrintFlags::default() });
        assert!(assumed.starts_with("module {\n"), "{assumed}");
        assert!(assumed.contains("    return %0, %arg0 : i32, i32\n"), "{assumed}");
    }

    #[test]
    fn valid_ir_prints_custom_without_the_flag() {
        let ctx = Context::new(services::dialect_registry());
        let source = SourceFile::new("f.mlir", Arc::from("func.func @f() {\n  return\n}\n"));
        let (ir, module) = services::parse_source_with(&ctx, &source, true).expect("valid input");
        let plain = print_op(&ctx, &ir, module, &IrPrintFlags::default());
        let assumed = print_op(&ctx, &ir, module, &IrPrintFlags { assume_verified: true, ..IrPrintFlags::default() });
        assert_eq!(plain, assumed);
        assert!(plain.starts_with("module {\n"));
    }
}
