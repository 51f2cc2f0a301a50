//! fuser diagnostics of every severity become MLIR diagnostics with their location and
//! notes (through the C++ emitter: MLIR 19's C API only emits bare errors).

mod common;

use common::*;
use fuser_mlir_bridge::emit::emit;
use fuser_mlir_text::{TextDiagnostic, TextSeverity};
use melior::ir::Location;
use std::cell::RefCell;
use std::rc::Rc;

/// (severity, location, message, notes as "location: message") of each emitted diagnostic.
type Seen = Vec<(String, String, String, Vec<String>)>;

fn emitted(diag: &TextDiagnostic) -> Seen {
    let context = mlir_context();
    let seen = Rc::new(RefCell::new(Seen::new()));
    let sink = Rc::clone(&seen);
    let id = context.attach_diagnostic_handler(move |d| {
        let notes = (0..d.note_count()).map(|i| d.note(i).unwrap()).map(|n| format!("{}: {n}", n.location())).collect();
        sink.borrow_mut().push((format!("{:?}", d.severity()), d.location().to_string(), d.to_string(), notes));
        true
    });
    let at_op = Location::new(&context, "op.mlir", 9, 9);
    emit(context.to_ref_for_test(), diag, at_op);
    context.detach_diagnostic_handler(id);
    seen.borrow().clone()
}

trait ToRef {
    fn to_ref_for_test(&self) -> melior::ContextRef<'_>;
}
impl ToRef for melior::Context {
    fn to_ref_for_test(&self) -> melior::ContextRef<'_> {
        // SAFETY: the context outlives the reference.
        unsafe { melior::ContextRef::from_raw(self.to_raw()) }
    }
}

fn diag(severity: TextSeverity, loc: &str, message: &str, notes: &[(&str, &str)]) -> TextDiagnostic {
    TextDiagnostic {
        severity,
        loc: loc.into(),
        message: message.into(),
        notes: notes
            .iter()
            .map(|(l, m)| TextDiagnostic {
                severity: TextSeverity::Note,
                loc: l.to_string(),
                message: m.to_string(),
                notes: vec![],
            })
            .collect(),
    }
}

#[test]
fn severities_locations_and_notes_survive() {
    let seen =
        emitted(&diag(TextSeverity::Warning, "loc(\"a.mlir\":3:4)", "careful", &[("loc(\"b.mlir\":1:2)", "here")]));
    assert_eq!(seen.len(), 1, "{seen:?}");
    let (severity, loc, message, notes) = &seen[0];
    assert_eq!(severity, "Warning");
    assert_eq!((loc.as_str(), message.as_str()), ("loc(\"a.mlir\":3:4)", "careful"));
    assert_eq!(notes, &["loc(\"b.mlir\":1:2): here"]);

    let seen = emitted(&diag(TextSeverity::Remark, "loc(callsite(\"f\" at \"c.mlir\":5:6))", "fyi", &[]));
    assert_eq!(seen[0].0, "Remark");
    assert_eq!(seen[0].1, "loc(callsite(\"f\" at \"c.mlir\":5:6))");

    let seen = emitted(&diag(TextSeverity::Error, "loc(\"x\"(\"d.mlir\":7:8))", "bad", &[]));
    assert_eq!((seen[0].0.as_str(), seen[0].1.as_str()), ("Error", "loc(\"x\"(\"d.mlir\":7:8))"));
}

#[test]
fn unknown_and_unparsable_locations_fall_back_to_the_op() {
    let seen = emitted(&diag(TextSeverity::Error, "loc(unknown)", "where?", &[("not a location", "n")]));
    assert_eq!(seen[0].1, "loc(\"op.mlir\":9:9)");
    assert_eq!(seen[0].3, ["loc(\"op.mlir\":9:9): n"]);
}
