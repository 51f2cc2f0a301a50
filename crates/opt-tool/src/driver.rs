//! The work of `fuser-opt` once its flags are parsed: build the pass pipeline, read and split
//! the input, and for each chunk parse, verify, run the pipeline, then print the result or
//! check the diagnostics against `expected-*` comments.
//!
//! Output goes to the `-o` file or stdout; IR dumps, diagnostics and timing reports go to
//! stderr. The returned bool is overall success (exit status 0).

use crate::cli::Options;
use crate::services;
use fuser_ir::diag::{SourceFile, SourceMgr, render};
use fuser_ir::pass::adapters::{self, IrPrintFlags};
use fuser_ir::pass::{
    LogEntry, OpPassManager, PassFilter, PassManager, PassManagerConfig, PassRegistry, PipelineError, TimingNode,
};
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
            eprintln!("{tool}: cannot open input file '{}': {e}", opts.input);
            return false;
        }
    };
    let name = if opts.input == "-" { "<stdin>".to_string() } else { opts.input.clone() };
    let text = match String::from_utf8(text) {
        Ok(t) => t,
        Err(e) => {
            eprint!("{}", invalid_utf8_diagnostic(&name, e.as_bytes(), e.utf8_error().valid_up_to()));
            return false;
        }
    };
    let manager = PassManager { pipeline, config: pass_config(opts) };
    let mut output = String::new();
    let mut ok = true;
    match &opts.split_input {
        None => ok &= process_chunk(opts, &manager, SourceFile::new(name, Arc::from(text)), &mut output),
        Some(marker) => {
            for (i, chunk) in split::split_input(&text, marker).into_iter().enumerate() {
                if i > 0 {
                    output.push_str(split::OUTPUT_SEPARATOR);
                }
                let source = SourceFile::new(chunk.buffer_name(&name), Arc::from(chunk.text));
                ok &= process_chunk(opts, &manager, source, &mut output);
                // mlir-opt ends every chunk's output with an empty line.
                output.push('\n');
            }
        }
    }
    write_output(&opts.output, &output, tool) && ok
}

/// A diagnostic without location, rendered like MLIR's `<unknown>:0: error: ...`.
fn render_plain(message: &str) -> String {
    let ctx = Context::empty();
    render(&ctx, &SourceMgr::new(), &Diagnostic::error(ctx.unknown_loc(), message))
}

/// The pipeline from `--pass-pipeline` or from pass flags (a `builtin.module` pipeline).
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

fn pass_config(opts: &Options) -> PassManagerConfig {
    let mut c = PassManagerConfig {
        threading: !opts.disable_threading,
        verify_each: opts.verify_each,
        print_op_on_diagnostic: !opts.verify_diagnostics,
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
    }
}

/// Parses, verifies, runs and prints one buffer; returns success.
fn process_chunk(opts: &Options, manager: &PassManager, source: SourceFile, output: &mut String) -> bool {
    let ctx = Context::new(services::dialect_registry());
    ctx.set_allow_unregistered(opts.allow_unregistered);
    let mut sources = SourceMgr::new();
    sources.add(source.clone());
    let mut timing = TimingNode::new("root");
    let start = Instant::now();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let report = |d: &Diagnostic, diags: &mut Vec<Diagnostic>| {
        if opts.verify_diagnostics {
            diags.push(d.clone());
        } else {
            eprint!("{}", render(&ctx, &sources, d));
        }
    };

    let parsed = services::parse_source(&ctx, &source).and_then(|(ir, op)| match adapters::verify_op(&ctx, &ir, op) {
        Ok(()) => Ok((ir, op)),
        Err(errors) => Err(errors),
    });
    timing.child_mut("Parser").add(start.elapsed());
    let mut success = false;
    match parsed {
        Err(errors) => errors.iter().for_each(|d| report(d, &mut diags)),
        Ok((mut ir, op)) => {
            let result = manager.run(&ctx, &mut ir, op);
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
                let text = adapters::print_op(&ctx, &ir, op, &print_flags(opts));
                output.push_str(&text);
                if !text.ends_with('\n') {
                    output.push('\n');
                }
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
                eprintln!("{m}");
            }
            false
        }
    }
}

/// mlir-opt turns off "see current operation" notes under `--verify-diagnostics`.
fn without_current_op_notes(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    for d in &mut diags {
        d.notes.retain(|n| !n.message.starts_with("see current operation:"));
    }
    diags
}

fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut s = Vec::new();
        std::io::stdin().read_to_end(&mut s)?;
        Ok(s)
    } else {
        std::fs::read(path)
    }
}

/// fuser reads UTF-8 source text only (mlir-opt also accepts other bytes in comments and
/// strings): an error at the first byte that is not UTF-8, showing its line.
fn invalid_utf8_diagnostic(name: &str, bytes: &[u8], bad_at: usize) -> String {
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

fn write_output(path: &str, text: &str, tool: &str) -> bool {
    let result = if path == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|_| out.flush())
    } else {
        std::fs::write(path, text)
    };
    match result {
        Ok(()) => true,
        // A closed pipe (e.g. `| head`) is not an error worth reporting loudly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => true,
        Err(e) => {
            eprintln!("{tool}: cannot write output '{path}': {e}");
            false
        }
    }
}
