//! The fuser passes and named pipelines offered to MLIR, each under an MLIR pass argument
//! (the fuser name behind a prefix, e.g. `fuser-cse`, so that fuser's `canonicalize` and
//! `cse` do not clash with MLIR's) and with the op it must run on.
//!
//! A pass keeps its fuser anchor (`func.func` passes are MLIR passes on `func.func`); an
//! anchor-less pass is op-agnostic; a named pipeline runs on `builtin.module`, where fuser's
//! pipelines are meant to run (they nest their own `func.func` pipelines).

use fuser_ir::pass::PassRegistry;

/// Whether an entry is a single pass or a named pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Pass,
    Pipeline,
}

/// One pass or pipeline as MLIR sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: EntryKind,
    /// The fuser name (`tp-default`).
    pub name: &'static str,
    /// The MLIR pass argument (`fuser-tp-default`).
    pub argument: String,
    pub summary: &'static str,
    /// The op name the MLIR pass is restricted to; `None`: any op.
    pub anchor: Option<&'static str>,
}

/// Every registered fuser pass and pipeline, with their MLIR arguments.
pub struct Catalog {
    pub registry: PassRegistry,
    pub entries: Vec<Entry>,
}

/// The prefix of every MLIR pass argument the bridge and the plugin register.
pub const DEFAULT_PREFIX: &str = "fuser-";

impl Catalog {
    /// Every pass of `fuser_passes::register_all`, arguments prefixed with `prefix`.
    pub fn new(prefix: &str) -> Result<Catalog, String> {
        let mut registry = PassRegistry::new();
        fuser_passes::register_all(&mut registry)?;
        let mut entries: Vec<Entry> = registry
            .passes()
            .map(|p| Entry {
                kind: EntryKind::Pass,
                name: p.name,
                argument: format!("{prefix}{}", p.name),
                summary: p.summary,
                anchor: p.anchor,
            })
            .collect();
        entries.extend(registry.pipelines().map(|p| Entry {
            kind: EntryKind::Pipeline,
            name: p.name,
            argument: format!("{prefix}{}", p.name),
            summary: p.summary,
            anchor: Some("builtin.module"),
        }));
        Ok(Catalog { registry, entries })
    }

    /// The entry registered under MLIR argument `argument`.
    pub fn by_argument(&self, argument: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.argument == argument)
    }

    /// The entry of fuser pass or pipeline `name`.
    pub fn by_name(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_and_pipeline_is_offered_with_its_anchor() {
        let c = Catalog::new(DEFAULT_PREFIX).unwrap();
        let n = c.registry.passes().count() + c.registry.pipelines().count();
        assert_eq!(c.entries.len(), n);
        let tp = c.by_argument("fuser-tp-default").unwrap();
        assert_eq!((tp.kind, tp.anchor), (EntryKind::Pipeline, Some("builtin.module")));
        assert_eq!(c.by_name("fusion-to-host").unwrap().anchor, Some("func.func"));
        assert_eq!(c.by_name("cse").unwrap().anchor, None);
        assert!(c.by_argument("cse").is_none());
    }
}
