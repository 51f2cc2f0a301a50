//! The pass registry: passes and named pipelines by pipeline name, and the `--help` /
//! `--list-passes` text generated from their metadata.
//!
//! Names are unique across passes and pipelines (registering a second entry under a taken name
//! is refused). Listings are sorted by name, so help text is deterministic.

use super::manager::OpPassManager;
use super::options::{OptionDef, OptionType, OptionValues};
use super::pass::PassInfo;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Builds a named pipeline into `pm` (the manager the pipeline name appeared in).
pub type BuildPipelineFn = fn(&OptionValues, &PassRegistry, &mut OpPassManager) -> Result<(), String>;

/// A named pipeline (`tp-default`), declared as a `static`.
pub struct PipelineInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub options: &'static [OptionDef],
    pub build: BuildPipelineFn,
}

/// Passes and named pipelines by name.
#[derive(Default)]
pub struct PassRegistry {
    passes: BTreeMap<&'static str, &'static PassInfo>,
    pipelines: BTreeMap<&'static str, &'static PipelineInfo>,
}

impl PassRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a pass. Registering the same `PassInfo` twice is harmless; another entry
    /// under a taken name is an error.
    pub fn register_pass(&mut self, info: &'static PassInfo) -> Result<(), String> {
        self.check_free(info.name, info as *const PassInfo as *const ())?;
        self.passes.insert(info.name, info);
        Ok(())
    }

    /// Registers a named pipeline (same rules as [`register_pass`](Self::register_pass)).
    pub fn register_pipeline(&mut self, info: &'static PipelineInfo) -> Result<(), String> {
        self.check_free(info.name, info as *const PipelineInfo as *const ())?;
        self.pipelines.insert(info.name, info);
        Ok(())
    }

    fn check_free(&self, name: &str, entry: *const ()) -> Result<(), String> {
        let existing = self
            .passes
            .get(name)
            .map(|p| *p as *const PassInfo as *const ())
            .or_else(|| self.pipelines.get(name).map(|p| *p as *const PipelineInfo as *const ()));
        match existing {
            Some(e) if e != entry => Err(format!("a pass or pipeline named '{name}' is already registered")),
            _ => Ok(()),
        }
    }

    pub fn pass(&self, name: &str) -> Option<&'static PassInfo> {
        self.passes.get(name).copied()
    }
    pub fn pipeline(&self, name: &str) -> Option<&'static PipelineInfo> {
        self.pipelines.get(name).copied()
    }
    /// Registered passes, sorted by name.
    pub fn passes(&self) -> impl Iterator<Item = &'static PassInfo> + '_ {
        self.passes.values().copied()
    }
    /// Registered pipelines, sorted by name.
    pub fn pipelines(&self) -> impl Iterator<Item = &'static PipelineInfo> + '_ {
        self.pipelines.values().copied()
    }

    /// The listing `--list-passes` prints and `--help` embeds: a `Passes:` section and a
    /// `Pass Pipelines:` section, each entry with its summary and options, laid out like
    /// LLVM's command-line help (`indent` is prepended to every line).
    pub fn listing(&self, indent: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{indent}Passes:");
        for p in self.passes() {
            let summary = match p.anchor {
                Some(a) => format!("{} (on '{a}')", p.summary),
                None => p.summary.to_string(),
            };
            write_entry(&mut out, indent, p.name, &summary, p.options);
        }
        if self.pipelines.is_empty() {
            return out;
        }
        let _ = writeln!(out, "{indent}Pass Pipelines:");
        for p in self.pipelines() {
            write_entry(&mut out, indent, p.name, p.summary, p.options);
        }
        out
    }
}

/// Column where the `- description` part starts, as in LLVM's help.
const HELP_COLUMN: usize = 57;

/// `  --name   -   summary` then one line per option and per enum case.
fn write_entry(out: &mut String, indent: &str, name: &str, summary: &str, options: &[OptionDef]) {
    write_help_line(out, &format!("{indent}  --{name}"), &format!("-   {summary}"));
    let mut sorted: Vec<&OptionDef> = options.iter().collect();
    sorted.sort_by_key(|o| o.name);
    for o in sorted {
        let placeholder = o.ty.help_placeholder().map(|p| format!("={p}")).unwrap_or_default();
        let default = if o.default.is_empty() { String::new() } else { format!(" (default: {})", o.default) };
        write_help_line(
            out,
            &format!("{indent}    --{}{placeholder}", o.name),
            &format!("- {}{default}", o.description),
        );
        if let OptionType::Enum(cases) = o.ty {
            for c in cases {
                write_help_line(out, &format!("{indent}      ={}", c.name), &format!("-   {}", c.description));
            }
        }
    }
}

fn write_help_line(out: &mut String, left: &str, right: &str) {
    let pad = HELP_COLUMN.saturating_sub(left.len()).max(1);
    let _ = writeln!(out, "{left}{:pad$}{right}", "");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::pass::{Pass, PassOutcome};
    use crate::{Context, Diagnostic, Ir, OpId};

    struct Nop;
    impl Pass for Nop {
        fn info(&self) -> &'static PassInfo {
            &NOP
        }
        fn run(&self, _: &Context, _: &mut Ir, _: OpId) -> Result<PassOutcome, Diagnostic> {
            Ok(PassOutcome::unchanged())
        }
    }
    static NOP_OPTS: &[OptionDef] = &[OptionDef::new("level", OptionType::Int, "2", "How hard to try")];
    static NOP: PassInfo = PassInfo {
        name: "nop",
        display: "Nop",
        summary: "Does nothing",
        description: "",
        anchor: Some("func.func"),
        options: NOP_OPTS,
        create: |_| Ok(Box::new(Nop)),
    };
    static NOP2: PassInfo = PassInfo { name: "nop", display: "Nop2", ..NOP };

    #[test]
    fn register_lookup_and_listing() {
        let mut r = PassRegistry::new();
        r.register_pass(&NOP).unwrap();
        r.register_pass(&NOP).unwrap();
        assert!(r.register_pass(&NOP2).is_err());
        assert_eq!(r.pass("nop").map(|p| p.display), Some("Nop"));
        let text = r.listing("");
        assert!(text.starts_with("Passes:\n  --nop"), "{text}");
        assert!(text.contains("-   Does nothing (on 'func.func')"));
        assert!(text.contains("    --level=<long>"));
        assert!(text.contains("- How hard to try (default: 2)"));
    }
}
