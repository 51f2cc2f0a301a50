//! Command-line parsing for `fuser-opt`, following LLVM's `cl` conventions: flags start with
//! `-` or `--`; values come as `--flag=value` or, for flags that take one, as the next
//! argument; booleans accept `--flag`, `--flag=true|false|1|0`; `-` alone is stdin; `--` ends
//! the flags. Any registered pass or pipeline name is also a flag (`--cse`,
//! `--canonicalize=max-iterations=3`), building a `builtin.module(...)` pipeline in flag order.
//!
//! Parsing never exits the process: it returns a [`Command`] or an error message.

use fuser_ir::pass::PassRegistry;

/// Settings gathered from the command line.
#[derive(Clone, Debug)]
pub struct Options {
    pub input: String,
    pub output: String,
    pub allow_unregistered: bool,
    pub print_generic: bool,
    pub print_debuginfo: bool,
    pub print_local_scope: bool,
    /// `--mlir-pretty-debuginfo`.
    pub print_pretty_debuginfo: bool,
    /// `--no-implicit-module`.
    pub no_implicit_module: bool,
    /// `--mlir-print-skip-regions`.
    pub print_skip_regions: bool,
    /// `--mlir-print-elementsattrs-with-hex-if-larger=N`.
    pub print_hex_if_larger: Option<i64>,
    /// `--mlir-print-unique-ssa-ids`.
    pub print_unique_ssa_ids: bool,
    /// `--mlir-print-value-users`.
    pub print_value_users: bool,
    /// `--mlir-elide-resource-strings-if-larger=N`.
    pub elide_resource_strings_if_larger: Option<u64>,
    /// `--mlir-elide-elementsattrs-if-larger=N`.
    pub elide_elements_if_larger: Option<u64>,
    /// `--mlir-print-op-on-diagnostic` (default true): attach the op, in generic form, to the
    /// errors reported about it ("see current operation: ...").
    pub print_op_on_diagnostic: bool,
    /// `--mlir-print-assume-verified`.
    pub print_assume_verified: bool,
    pub pass_pipeline: Option<String>,
    /// `(name, options text)` of passes given as flags, in order.
    pub pass_flags: Vec<(String, String)>,
    pub split_input: Option<String>,
    pub verify_diagnostics: bool,
    pub verify_each: bool,
    pub disable_threading: bool,
    pub timing: bool,
    pub print_before: Vec<String>,
    pub print_after: Vec<String>,
    pub print_before_all: bool,
    pub print_after_all: bool,
    pub print_after_change: bool,
    pub print_after_failure: bool,
    pub dump_pass_pipeline: bool,
    pub crash_reproducer: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            input: "-".to_string(),
            output: "-".to_string(),
            allow_unregistered: false,
            print_generic: false,
            print_debuginfo: false,
            print_local_scope: false,
            print_pretty_debuginfo: false,
            no_implicit_module: false,
            print_skip_regions: false,
            print_hex_if_larger: None,
            print_unique_ssa_ids: false,
            print_value_users: false,
            elide_resource_strings_if_larger: None,
            elide_elements_if_larger: None,
            print_op_on_diagnostic: true,
            print_assume_verified: false,
            pass_pipeline: None,
            pass_flags: Vec::new(),
            split_input: None,
            verify_diagnostics: false,
            verify_each: true,
            disable_threading: false,
            timing: false,
            print_before: Vec::new(),
            print_after: Vec::new(),
            print_before_all: false,
            print_after_all: false,
            print_after_change: false,
            print_after_failure: false,
            dump_pass_pipeline: false,
            crash_reproducer: None,
        }
    }
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Run(Box<Options>),
    Help,
    Version,
    ListPasses,
}

/// The default marker of `--split-input-file`.
pub const DEFAULT_SPLIT_MARKER: &str = fuser_ir::split::DEFAULT_MARKER;

/// How a known flag takes its value.
#[derive(Clone, Copy, PartialEq)]
enum Arity {
    /// `--flag` or `--flag=bool`.
    Bool,
    /// `--flag=v` or `--flag v`.
    Value,
    /// `--flag` or `--flag=v` only.
    OptionalValue,
}

/// (name, arity, value placeholder, description): the flags `--help` lists, in order.
pub const FLAGS: &[(&str, &str, &str)] = &[
    ("allow-unregistered-dialect", "", "Allow operations and types of dialects that are not registered"),
    ("dump-pass-pipeline", "", "Print the pipeline that will be run (to stderr)"),
    ("help", "", "Display available options"),
    ("list-passes", "", "List the registered passes and pass pipelines with their options"),
    ("mlir-disable-threading", "", "Run nested pass pipelines sequentially, in place"),
    (
        "mlir-elide-elementsattrs-if-larger",
        "=<uint>",
        "Print non-splat dense elements attributes with more elements than this as dense_resource<__elided__>",
    ),
    (
        "mlir-elide-resource-strings-if-larger",
        "=<uint>",
        "Leave out entries of the {-# ... #-} resource section whose value prints longer than this many characters",
    ),
    (
        "mlir-pass-pipeline-crash-reproducer",
        "=<string>",
        "Write a .mlir reproducer file at the given path if the pass manager crashes or fails",
    ),
    ("mlir-pretty-debuginfo", "", "Print pretty debug info in MLIR output"),
    ("mlir-print-debuginfo", "", "Print debug info (locations) in the output"),
    (
        "mlir-print-elementsattrs-with-hex-if-larger",
        "=<long>",
        "Print DenseElementsAttrs with a hex string that have more elements than the given upper limit (use -1 to disable)",
    ),
    ("mlir-print-ir-after", "=<pass-arg>", "Print IR after the given passes (comma-separated, repeatable)"),
    ("mlir-print-ir-after-all", "", "Print IR after each pass"),
    ("mlir-print-ir-after-change", "", "When printing the IR after a pass, only print if the IR changed"),
    ("mlir-print-ir-after-failure", "", "Print IR after a pass that failed"),
    ("mlir-print-ir-before", "=<pass-arg>", "Print IR before the given passes (comma-separated, repeatable)"),
    ("mlir-print-ir-before-all", "", "Print IR before each pass"),
    (
        "mlir-print-assume-verified",
        "",
        "Print the custom form without verifying first (by default IR that fails to verify prints in the generic form)",
    ),
    ("mlir-print-local-scope", "", "Print with local scope: locations and aliases inline"),
    ("mlir-print-op-generic", "", "Print the generic op form"),
    (
        "mlir-print-op-on-diagnostic",
        "",
        "Attach the op an error is about, in generic form, as a 'see current operation' note (default: true)",
    ),
    ("mlir-print-skip-regions", "", "Skip regions when printing ops"),
    (
        "mlir-print-unique-ssa-ids",
        "",
        "Number values, block arguments and name conflicts across all regions, never restarting in nested ones",
    ),
    (
        "mlir-print-value-users",
        "",
        "Print the users of op results and block arguments as comments (ops without results get ids)",
    ),
    ("mlir-timing", "", "Display execution times"),
    ("no-implicit-module", "", "Disable implicit addition of a top-level module op during parsing"),
    (
        "pass-pipeline",
        "=<string>",
        "Textual description of the pass pipeline to run, e.g. 'builtin.module(func.func(cse))'",
    ),
    (
        "split-input-file",
        "[=<string>]",
        "Split the input file into chunks at the given or default marker ('// -----') and process each chunk independently",
    ),
    ("verify-diagnostics", "", "Check that emitted diagnostics match expected-* lines on the corresponding line"),
    (
        "verify-each",
        "",
        "Run the verifier after each transformation pass (default: true; --verify-each=false turns it off)",
    ),
    ("version", "", "Display the version of this program"),
];

fn arity(name: &str) -> Option<Arity> {
    Some(match name {
        "o"
        | "pass-pipeline"
        | "mlir-print-ir-before"
        | "mlir-print-ir-after"
        | "mlir-pass-pipeline-crash-reproducer"
        | "mlir-print-elementsattrs-with-hex-if-larger"
        | "mlir-elide-resource-strings-if-larger"
        | "mlir-elide-elementsattrs-if-larger" => Arity::Value,
        "split-input-file" => Arity::OptionalValue,
        "allow-unregistered-dialect"
        | "mlir-print-op-generic"
        | "mlir-print-debuginfo"
        | "mlir-print-local-scope"
        | "mlir-pretty-debuginfo"
        | "no-implicit-module"
        | "mlir-print-skip-regions"
        | "mlir-print-unique-ssa-ids"
        | "mlir-print-value-users"
        | "mlir-print-op-on-diagnostic"
        | "mlir-print-assume-verified"
        | "verify-diagnostics"
        | "verify-each"
        | "mlir-disable-threading"
        | "mlir-timing"
        | "mlir-print-ir-after-all"
        | "mlir-print-ir-before-all"
        | "mlir-print-ir-after-change"
        | "mlir-print-ir-after-failure"
        | "dump-pass-pipeline"
        | "list-passes"
        | "help"
        | "version" => Arity::Bool,
        _ => return None,
    })
}

fn parse_bool(flag: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "TRUE" | "True" | "1" => Ok(true),
        "false" | "FALSE" | "False" | "0" => Ok(false),
        _ => {
            Err(format!("for the {} option: '{value}' is invalid value for boolean argument! Try 0 or 1", dashed(flag)))
        }
    }
}

/// An LLVM `uint` option value: 32 bits, radix from the prefix (`0x`/`0X` hex, `0b`/`0B`
/// binary, `0o` or a leading `0` octal, else decimal), no sign or spaces.
fn parse_uint(v: &str) -> Option<u32> {
    let (digits, radix) = if let Some(r) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        (r, 16)
    } else if let Some(r) = v.strip_prefix("0b").or_else(|| v.strip_prefix("0B")) {
        (r, 2)
    } else if let Some(r) = v.strip_prefix("0o") {
        (r, 8)
    } else if v.len() > 1
        && let Some(r) = v.strip_prefix('0')
    {
        (r, 8)
    } else {
        (v, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u32::from_str_radix(digits, radix).ok()
}

/// A flag as LLVM's messages spell it: one dash for one-letter names (`-o`), else two.
fn dashed(name: &str) -> String {
    if name.chars().count() == 1 { format!("-{name}") } else { format!("--{name}") }
}

/// Parses the arguments (without the program name).
pub fn parse_args(args: &[String], registry: &PassRegistry, tool: &str) -> Result<Command, String> {
    let mut o = Options::default();
    let mut positional: Vec<String> = Vec::new();
    let mut only_positional = false;
    let mut i = 0;
    let (mut help, mut version, mut list) = (false, false, false);
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_positional || arg == "-" || !arg.starts_with('-') {
            positional.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_positional = true;
            continue;
        }
        let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        let (name, inline_value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let Some(kind) = arity(name) else {
            if registry.pass(name).is_some() || registry.pipeline(name).is_some() {
                o.pass_flags.push((name.to_string(), inline_value.unwrap_or_default()));
                continue;
            }
            return Err(format!("{tool}: Unknown command line argument '{arg}'.  Try: '{tool} --help'"));
        };
        let value = match kind {
            Arity::Bool => Some(match &inline_value {
                Some(v) => parse_bool(name, v).map_err(|e| format!("{tool}: {e}"))?.to_string(),
                None => "true".to_string(),
            }),
            Arity::OptionalValue => inline_value,
            Arity::Value => match inline_value {
                Some(v) => Some(v),
                None if i < args.len() => {
                    i += 1;
                    Some(args[i - 1].clone())
                }
                None => return Err(format!("{tool}: for the {} option: requires a value!", dashed(name))),
            },
        };
        let flag = value.as_deref() == Some("true");
        match name {
            "o" => o.output = value.unwrap_or_default(),
            "pass-pipeline" => o.pass_pipeline = value,
            "mlir-print-ir-before" => o.print_before.extend(split_names(value)),
            "mlir-print-ir-after" => o.print_after.extend(split_names(value)),
            "mlir-pass-pipeline-crash-reproducer" => o.crash_reproducer = value,
            "mlir-print-elementsattrs-with-hex-if-larger" => {
                let v = value.unwrap_or_default();
                let n = v.parse::<i64>().map_err(|_| {
                    format!("{tool}: for the {} option: '{v}' value invalid for long argument!", dashed(name))
                })?;
                o.print_hex_if_larger = Some(n);
            }
            "mlir-elide-elementsattrs-if-larger" => {
                let v = value.unwrap_or_default();
                let n = parse_uint(&v).ok_or_else(|| {
                    format!("{tool}: for the {} option: '{v}' value invalid for uint argument!", dashed(name))
                })?;
                o.elide_elements_if_larger = Some(n as u64);
            }
            "mlir-elide-resource-strings-if-larger" => {
                let v = value.unwrap_or_default();
                let n = parse_uint(&v).ok_or_else(|| {
                    format!("{tool}: for the {} option: '{v}' value invalid for uint argument!", dashed(name))
                })?;
                o.elide_resource_strings_if_larger = Some(n as u64);
            }
            "split-input-file" => o.split_input = Some(value.unwrap_or_else(|| DEFAULT_SPLIT_MARKER.to_string())),
            "allow-unregistered-dialect" => o.allow_unregistered = flag,
            "mlir-print-op-generic" => o.print_generic = flag,
            "mlir-print-debuginfo" => o.print_debuginfo = flag,
            "mlir-print-local-scope" => o.print_local_scope = flag,
            "mlir-pretty-debuginfo" => o.print_pretty_debuginfo = flag,
            "no-implicit-module" => o.no_implicit_module = flag,
            "mlir-print-skip-regions" => o.print_skip_regions = flag,
            "mlir-print-unique-ssa-ids" => o.print_unique_ssa_ids = flag,
            "mlir-print-value-users" => o.print_value_users = flag,
            "mlir-print-op-on-diagnostic" => o.print_op_on_diagnostic = flag,
            "mlir-print-assume-verified" => o.print_assume_verified = flag,
            "verify-diagnostics" => o.verify_diagnostics = flag,
            "verify-each" => o.verify_each = flag,
            "mlir-disable-threading" => o.disable_threading = flag,
            "mlir-timing" => o.timing = flag,
            "mlir-print-ir-after-all" => o.print_after_all = flag,
            "mlir-print-ir-before-all" => o.print_before_all = flag,
            "mlir-print-ir-after-change" => o.print_after_change = flag,
            "mlir-print-ir-after-failure" => o.print_after_failure = flag,
            "dump-pass-pipeline" => o.dump_pass_pipeline = flag,
            "list-passes" => list = flag,
            "help" => help = flag,
            "version" => version = flag,
            _ => unreachable!("every flag with an arity is handled"),
        }
    }
    if help {
        return Ok(Command::Help);
    }
    if version {
        return Ok(Command::Version);
    }
    if list {
        return Ok(Command::ListPasses);
    }
    if positional.len() > 1 {
        return Err(format!(
            "{tool}: Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: {tool} --help"
        ));
    }
    if let Some(input) = positional.pop() {
        o.input = input;
    }
    Ok(Command::Run(Box::new(o)))
}

fn split_names(value: Option<String>) -> Vec<String> {
    value.unwrap_or_default().split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// The `--help` text: usage, the flags, the registered dialects, passes and pipelines.
pub fn help_text(tool: &str, dialects: &[&str], registry: &PassRegistry) -> String {
    let mut out = String::new();
    out += "OVERVIEW: fuser modular optimizer driver (MLIR-compatible)\n\n";
    out += &format!("Available Dialects: {}\n", dialects.join(", "));
    out += &format!("USAGE: {tool} [options] <input file>\n\nOPTIONS:\n\n");
    out += "General options:\n\n";
    out += &help_line("  -o <filename>", "Output filename (default: stdout)");
    for (name, placeholder, desc) in FLAGS {
        out += &help_line(&format!("  --{name}{placeholder}"), desc);
    }
    out += "\n  Flags may be written with one or two dashes; values as --flag=value or --flag value.\n";
    out += "  Input '-' (or no input) reads stdin. Exit status: 0 on success, 1 on any error.\n\n";
    out += "  Compiler passes to run (as flags they build a 'builtin.module(...)' pipeline in order;\n";
    out += "  options go after '=', e.g. --canonicalize=\"max-iterations=3 top-down=false\")\n";
    out += &registry.listing("    ");
    out
}

fn help_line(left: &str, right: &str) -> String {
    let pad = 61usize.saturating_sub(left.len()).max(1);
    format!("{left}{:pad$}- {right}\n", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse_args(&args, &PassRegistry::new(), "fuser-opt")
    }
    fn run(args: &[&str]) -> Options {
        match parse(args) {
            Ok(Command::Run(o)) => *o,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn llvm_style_flags() {
        let o = run(&["-o", "out.mlir", "--pass-pipeline", "builtin.module(cse)", "in.mlir", "-verify-each=false"]);
        assert_eq!((o.output.as_str(), o.input.as_str()), ("out.mlir", "in.mlir"));
        assert_eq!(o.pass_pipeline.as_deref(), Some("builtin.module(cse)"));
        assert!(!o.verify_each);
        let o = run(&["--split-input-file", "-mlir-print-ir-before=cse,canonicalize", "--mlir-print-ir-before", "x"]);
        assert_eq!(o.split_input.as_deref(), Some(DEFAULT_SPLIT_MARKER));
        assert_eq!(o.print_before, ["cse", "canonicalize", "x"]);
        assert_eq!(o.input, "-");
        let o = run(&["--split-input-file=// ====", "-"]);
        assert_eq!(o.split_input.as_deref(), Some("// ===="));
    }

    #[test]
    fn errors() {
        assert!(parse(&["--frobnicate"]).unwrap_err().contains("Unknown command line argument '--frobnicate'"));
        assert!(parse(&["a", "b"]).unwrap_err().contains("Too many positional arguments"));
        assert!(parse(&["--verify-each=maybe"]).unwrap_err().contains("invalid value for boolean argument"));
        assert!(parse(&["-o"]).unwrap_err().contains("requires a value"));
        assert!(parse(&["--help", "--frob=1"]).is_err());
        assert!(matches!(parse(&["-help"]), Ok(Command::Help)));
    }

    #[test]
    fn printing_flags() {
        assert!(run(&["--mlir-print-unique-ssa-ids"]).print_unique_ssa_ids);
        assert!(run(&["-mlir-print-value-users"]).print_value_users);
        let limit =
            |v: &str| run(&[&format!("--mlir-elide-resource-strings-if-larger={v}")]).elide_resource_strings_if_larger;
        assert_eq!(limit("28"), Some(28));
        assert_eq!(limit("0x1c"), Some(28));
        assert_eq!(limit("034"), Some(28));
        assert_eq!(limit("0"), Some(0));
        assert_eq!(run(&["--mlir-elide-resource-strings-if-larger", "7"]).elide_resource_strings_if_larger, Some(7));
        let bad_limit = parse(&["--mlir-elide-resource-strings-if-larger=-1"]).unwrap_err();
        assert!(bad_limit.ends_with(
            "for the --mlir-elide-resource-strings-if-larger option: '-1' value invalid for uint argument!"
        ));
        assert!(parse(&["--mlir-elide-resource-strings-if-larger=4294967296"]).is_err());
        assert!(run(&[]).print_op_on_diagnostic, "mlir-opt prints ops on diagnostics by default");
        assert!(!run(&["--mlir-print-op-on-diagnostic=false"]).print_op_on_diagnostic);
        assert!(run(&["--mlir-print-assume-verified"]).print_assume_verified);
    }
}
