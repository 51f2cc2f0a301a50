//! What checking one case can conclude: it passed, the pipeline rejected the program with a
//! clean diagnostic (not a bug, counted), a bf16 check failure that the f32 version of the same
//! program does not have (rounding noise, counted), or a [`Finding`] of one [`FindingClass`].

use std::fmt;

/// The kinds of bugs the oracle recognizes, roughly in pipeline order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FindingClass {
    /// The generated program does not parse or verify (a fuzzer bug, or a parser/verifier bug).
    InvalidProgram,
    /// Printing generic, parsing and printing again does not give the same text.
    RoundTrip,
    /// A panic anywhere: parser, pass, verifier, runtime.
    Panic,
    /// A pass left IR the verifier rejects.
    VerifierAfterPass,
    /// A pass after `fusion-to-host` rejected a program the fusion passes lowered.
    LateRejection,
    /// The lowered function still takes or returns tensors.
    NotLowered,
    /// `comm-verify` rejected the lowered program.
    CommVerify,
    /// The runtime could not prepare the lowered function.
    Prepare,
    /// The race checker reported a race.
    Race,
    /// The runtime watchdog reported a deadlock.
    Deadlock,
    /// Any other run error (shape mismatch, replicas that disagree, ...).
    RunError,
    /// The reference evaluator could not evaluate the fusion program.
    Reference,
    /// The gathered outputs differ from the f64 reference beyond tolerance.
    CheckFail,
    /// The case did not finish within its time limit.
    Hang,
}

impl FindingClass {
    pub fn name(self) -> &'static str {
        match self {
            FindingClass::InvalidProgram => "invalid-program",
            FindingClass::RoundTrip => "round-trip",
            FindingClass::Panic => "panic",
            FindingClass::VerifierAfterPass => "verifier-after-pass",
            FindingClass::LateRejection => "late-rejection",
            FindingClass::NotLowered => "not-lowered",
            FindingClass::CommVerify => "comm-verify",
            FindingClass::Prepare => "prepare",
            FindingClass::Race => "race",
            FindingClass::Deadlock => "deadlock",
            FindingClass::RunError => "run-error",
            FindingClass::Reference => "reference",
            FindingClass::CheckFail => "check-fail",
            FindingClass::Hang => "hang",
        }
    }
}

/// A bug found by a case.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Finding {
    pub class: FindingClass,
    pub message: String,
}

impl Finding {
    pub fn new(class: FindingClass, message: impl Into<String>) -> Finding {
        Finding { class, message: message.into() }
    }

    /// What the shrinker keeps constant: the class, and for a panic its source location, for
    /// diagnostics their wording with numbers and names blanked (shapes change while shrinking).
    pub fn signature(&self) -> String {
        match self.class {
            FindingClass::Panic => {
                let at = self.message.rfind("(at ").map_or("", |i| &self.message[i..]);
                format!("panic {}", at.split(')').next().unwrap_or(at))
            }
            FindingClass::LateRejection
            | FindingClass::CommVerify
            | FindingClass::Prepare
            | FindingClass::VerifierAfterPass
            | FindingClass::Reference
            | FindingClass::NotLowered => format!("{} {}", self.class.name(), normalized(&self.message, 96)),
            FindingClass::CheckFail if self.message.starts_with('[') => {
                let tag = self.message.split(']').next().unwrap_or("");
                format!("{} {tag}]", self.class.name())
            }
            FindingClass::Race => {
                let mut ops: Vec<&str> = self
                    .message
                    .split(|c: char| c.is_whitespace() || c == ',' || c == '\'')
                    .filter(|w| w.starts_with("host.") || w.starts_with("comm."))
                    .collect();
                ops.dedup();
                ops.sort_unstable();
                ops.dedup();
                format!("race {}", ops.join("/"))
            }
            _ => self.class.name().to_string(),
        }
    }
}

/// `text` with digits and SSA names blanked and bracketed lists (teams, shapes) and type
/// parameters elided, cut to `max` characters.
pub fn normalized(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut in_name = false;
    let mut depth = 0usize;
    let mut prev = ' ';
    for c in text.chars() {
        // `[...]` lists and the `<...>` parameters of a type (`view<4x8xf32, ...>`) are elided.
        let opens = c == '[' || (c == '<' && prev.is_alphanumeric());
        prev = c;
        match c {
            _ if opens => {
                if depth == 0 {
                    out.push_str(if c == '[' { "[..]" } else { "<..>" });
                }
                depth += 1;
                continue;
            }
            ']' | '>' if depth > 0 => {
                depth -= 1;
                continue;
            }
            _ if depth > 0 => continue,
            _ => {}
        }
        if c == '%' || c == '@' {
            in_name = true;
            out.push(c);
            continue;
        }
        if in_name && (c.is_alphanumeric() || c == '_') {
            continue;
        }
        in_name = false;
        out.push(if c.is_ascii_digit() { '#' } else { c });
        if out.chars().count() >= max {
            break;
        }
    }
    out
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class.name(), self.message)
    }
}

/// The conclusion about one case.
#[derive(Clone, PartialEq, Debug)]
pub enum Verdict {
    Pass,
    /// A clean diagnostic of the fusion passes: the program is outside what the lowering
    /// supports. `reason` is the normalized message, for the rejection table.
    Rejected {
        reason: String,
    },
    /// A bf16 check failure that disappears in f32.
    Noise {
        rel_err: String,
    },
    Found(Finding),
}

impl Verdict {
    pub fn finding(&self) -> Option<&Finding> {
        match self {
            Verdict::Found(f) => Some(f),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_ignore_numbers_and_names() {
        let a = Finding::new(FindingClass::CommVerify, "'comm.reduce' op rank 1 has root 1, rank 0 root 0 at %arg3");
        let b = Finding::new(FindingClass::CommVerify, "'comm.reduce' op rank 2 has root 2, rank 0 root 0 at %x");
        assert_eq!(a.signature(), b.signature());
        assert_eq!(normalized("team [0, 1, 2] at iteration 3", 40), "team [..] at iteration #");
        assert_eq!(normalized("must be !host.view<4x8xbf16, strides = [8, 1], ipc>", 60), "must be !host.view<..>");
        assert_eq!(normalized("rel err 2 > 1 and 1 < 2", 60), "rel err # > # and # < #");
        let p = Finding::new(FindingClass::Panic, "internal error: boom (at crates/x.rs:10:5)");
        assert_eq!(p.signature(), "panic (at crates/x.rs:10:5");
        let race = "'host.copy' at x: rank 0: race on buffer #3 elements [0, 4): comm.reduce at x on rank 0 stream 1 writes, host.copy at y";
        assert_eq!(Finding::new(FindingClass::Race, race).signature(), "race comm.reduce/host.copy");
        let tagged = Finding::new(FindingClass::CheckFail, "[passes with x] output #0");
        assert_eq!(tagged.signature(), "check-fail [passes with x]");
    }
}
