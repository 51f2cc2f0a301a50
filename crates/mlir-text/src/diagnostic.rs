//! Diagnostics as text: what a fuser pass reported, with each location printed as MLIR's
//! `loc(...)` syntax so the MLIR side can parse it back into an MLIR location.

use fuser_ir::diag::{Diagnostic, Severity};
use fuser_ir::{Context, printer};

/// Severity, numbered as MLIR's C API numbers `MlirDiagnosticSeverity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum TextSeverity {
    Error = 0,
    Warning = 1,
    Note = 2,
    Remark = 3,
}

impl From<Severity> for TextSeverity {
    fn from(s: Severity) -> Self {
        match s {
            Severity::Error => TextSeverity::Error,
            Severity::Warning => TextSeverity::Warning,
            Severity::Remark => TextSeverity::Remark,
            Severity::Note => TextSeverity::Note,
        }
    }
}

/// A diagnostic with its location as `loc(...)` text and its notes (one level, as MLIR's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextDiagnostic {
    pub severity: TextSeverity,
    pub loc: String,
    pub message: String,
    pub notes: Vec<TextDiagnostic>,
}

impl TextDiagnostic {
    /// Converts a fuser diagnostic; nested notes of notes are flattened into the note list.
    pub fn from_diagnostic(ctx: &Context, d: &Diagnostic) -> TextDiagnostic {
        let mut notes = Vec::new();
        collect_notes(ctx, &d.notes, &mut notes);
        TextDiagnostic {
            severity: d.severity.into(),
            loc: printer::print_attr(ctx, d.loc),
            message: d.message.clone(),
            notes,
        }
    }

    /// An error without a useful location (the MLIR side puts it at the op's location).
    pub fn error_at_unknown(message: impl Into<String>) -> TextDiagnostic {
        TextDiagnostic {
            severity: TextSeverity::Error,
            loc: "loc(unknown)".into(),
            message: message.into(),
            notes: Vec::new(),
        }
    }
}

fn collect_notes(ctx: &Context, notes: &[Diagnostic], out: &mut Vec<TextDiagnostic>) {
    for n in notes {
        out.push(TextDiagnostic {
            severity: TextSeverity::Note,
            loc: printer::print_attr(ctx, n.loc),
            message: n.message.clone(),
            notes: Vec::new(),
        });
        collect_notes(ctx, &n.notes, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_print_as_mlir_loc_syntax_and_notes_flatten() {
        let ctx = Context::new(fuser_dialects::registry());
        let loc = ctx.file_loc("f.mlir", 3, 7);
        let inner = Diagnostic::new(Severity::Note, ctx.unknown_loc(), "inner");
        let mut note = Diagnostic::new(Severity::Note, loc, "outer");
        note.notes.push(inner);
        let d = Diagnostic::warning(loc, "careful").with_note(loc, "see here");
        let mut d2 = d.clone();
        d2.notes.push(note);
        let t = TextDiagnostic::from_diagnostic(&ctx, &d2);
        assert_eq!(t.severity, TextSeverity::Warning);
        assert_eq!(t.loc, "loc(\"f.mlir\":3:7)");
        let messages: Vec<&str> = t.notes.iter().map(|n| n.message.as_str()).collect();
        assert_eq!(messages, ["see here", "outer", "inner"]);
        assert_eq!(t.notes[2].loc, "loc(unknown)");
    }
}
