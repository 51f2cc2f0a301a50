//! `fuser-lowerfuzz`: a lowering fuzzer for fuser (issue 11). It generates random valid fusion
//! programs ([`generate`]), lowers each with a random pipeline ([`pipeline`]) and checks the
//! result end to end in process ([`oracle`]: round trips of the generic form, verification
//! after each pass, `comm-verify`, a cpu run with the race checker against the f64 reference),
//! each case guarded against panics and hangs ([`watchdog`]). Failing cases are reduced by the
//! [`shrink`]er and written as lit regression tests ([`regression`]); [`campaign`] runs many
//! cases and keeps the counts and the coverage ([`coverage`]) of a run.

pub mod campaign;
pub mod coverage;
pub mod generate;
pub mod joint;
pub mod oracle;
pub mod passes;
pub mod pipeline;
pub mod program;
pub mod regression;
pub mod rng;
pub mod shrink;
pub mod verdict;
pub mod watchdog;
