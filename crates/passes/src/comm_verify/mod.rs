//! `comm-verify{team-size=d}`: a static verifier of the communication of a rank-generic host
//! program. The program is executed abstractly for every rank `r` in `0..d` ([`interp`]),
//! giving one trace of stream-level events per rank ([`trace`]); the traces are matched across
//! ranks ([`matching`]: point-to-point pairs, collective sequences per team with agreeing
//! kinds, sizes and buffer regions, handle exchanges)
//! and then run together ([`sim`]) to prove the absence of deadlock under the stream model of
//! the host and comm dialects.
//!
//! Every failure is an error diagnostic at the op concerned, with notes naming ranks,
//! iterations and ops; the IR is never changed. Order of the phases: interpretation errors stop
//! the analysis (no trace to match); matching errors stop it before the simulation (unmatched
//! posts would deadlock trivially).

pub mod interp;
pub mod matching;
pub mod report;
pub mod sim;
pub mod trace;

#[cfg(test)]
mod tests;

use fuser_dialects::fusion::Mesh;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};
use report::Reporter;
use trace::RankTrace;

/// The largest team size the pass accepts (each rank is interpreted separately).
pub const MAX_TEAM_SIZE: i64 = 1024;

static OPTIONS: &[OptionDef] = &[OptionDef::new(
    "team-size",
    OptionType::Int,
    "0",
    "Number of ranks to verify for (0: the size of the module's only fusion.mesh)",
)];

pub static COMM_VERIFY: PassInfo = PassInfo {
    name: "comm-verify",
    display: "CommVerify",
    summary: "Prove that a host program's communication matches and cannot deadlock",
    description: "Executes the host program abstractly for every rank of a team of `team-size` \
ranks (loop indices, `host.rank`/`host.world_size` arithmetic and `host.if` conditions are \
evaluated; buffers are known by their static types) and checks the resulting traces: every send \
has a matching recv of the same element count and type and the reverse, peers are valid ranks \
other than the sender, every rank of a team enters the same collectives in the same order with \
the same kind, reduction, root and consistent sizes on the same region of their buffers (when the members are one op, the view indices of the output, and of the input of a reduction, must agree on every rank), and a simulation of all ranks' streams \
(collectives and NCCL send/recv rendezvous, CUDA IPC get/put signalling, groups, waits, stream \
waits and host synchronization) reaches the end. Failures are errors at the ops concerned; the \
IR is left unchanged.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| {
        let team_size = o.get_int("team-size");
        if !(0..=MAX_TEAM_SIZE).contains(&team_size) {
            return Err(format!("comm-verify: 'team-size' must be in 0..={MAX_TEAM_SIZE}, got {team_size}"));
        }
        Ok(Box::new(CommVerify { team_size, values: o.clone() }))
    },
};

struct CommVerify {
    team_size: i64,
    values: OptionValues,
}

impl Pass for CommVerify {
    fn info(&self) -> &'static PassInfo {
        &COMM_VERIFY
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        let world = self.resolve_team_size(ctx, ir, func)?;
        let mut outcome = PassOutcome::unchanged();
        outcome.diagnostics = verify_function(ctx, ir, func, world);
        Ok(outcome)
    }
}

impl CommVerify {
    /// The option, or the size of the module's only mesh when it is 0.
    fn resolve_team_size(&self, ctx: &Context, ir: &Ir, func: OpId) -> Result<i64, Diagnostic> {
        if self.team_size > 0 {
            return Ok(self.team_size);
        }
        let meshes: Vec<Mesh> = ir
            .parent_op(func)
            .map(|m| ir.nested_ops(m).into_iter().filter_map(|op| Mesh::of_op(ctx, ir, op)).collect())
            .unwrap_or_default();
        match meshes.as_slice() {
            [m] if m.num_devices() <= MAX_TEAM_SIZE => Ok(m.num_devices()),
            [m] => Err(Diagnostic::error(
                ir.loc(func),
                format!("comm-verify: mesh @{} has {} devices, more than {MAX_TEAM_SIZE}", m.name, m.num_devices()),
            )),
            _ => Err(Diagnostic::error(
                ir.loc(func),
                format!(
                    "comm-verify: no 'team-size' given and the module has {} fusion.mesh ops (need exactly one)",
                    meshes.len()
                ),
            )),
        }
    }
}

/// Verifies `func` for a team of `world` ranks; returns the errors found (none: verified).
pub fn verify_function(ctx: &Context, ir: &Ir, func: OpId, world: i64) -> Vec<Diagnostic> {
    let traces = match interpret_all(ctx, ir, func, world) {
        Ok(t) => t,
        Err(diags) => return diags,
    };
    verify_traces(ctx, &traces)
}

/// The trace of every rank, or the (deduplicated) interpretation errors.
pub fn interpret_all(ctx: &Context, ir: &Ir, func: OpId, world: i64) -> Result<Vec<RankTrace>, Vec<Diagnostic>> {
    let mut traces = Vec::new();
    let mut errors: Vec<Diagnostic> = Vec::new();
    for rank in 0..world {
        match interp::interpret(ctx, ir, func, rank, world) {
            Ok(t) => traces.push(t),
            Err(d) => {
                if !errors.contains(&d) {
                    errors.push(d);
                }
            }
        }
    }
    if errors.is_empty() { Ok(traces) } else { Err(errors) }
}

/// Matches the traces and, when they match, simulates them; returns the errors found.
pub fn verify_traces(ctx: &Context, traces: &[RankTrace]) -> Vec<Diagnostic> {
    let mut out = Reporter::default();
    let links = matching::match_all(ctx, traces, &mut out);
    if out.has_errors() {
        return out.finish();
    }
    match sim::simulate(traces, &links) {
        Ok(()) => Vec::new(),
        Err(dl) => vec![deadlock_diagnostic(ctx, traces, &dl)],
    }
}

/// The most blocked streams named in a deadlock report.
const MAX_DEADLOCK_NOTES: usize = 32;

fn deadlock_diagnostic(ctx: &Context, traces: &[RankTrace], dl: &sim::Deadlock) -> Diagnostic {
    let site_of = |b: &sim::Blocked| &traces[b.rank].entries[b.entry].site;
    let Some(first) = dl.blocked.first() else {
        // A deadlock always names a blocked entry; never panic if it does not.
        return Diagnostic::error(ctx.unknown_loc(), "comm-verify: deadlock");
    };
    let mut d = Diagnostic::error(
        site_of(first).loc,
        format!("comm-verify: deadlock with {} ranks: no stream can make progress", traces.len()),
    );
    for b in dl.blocked.iter().take(MAX_DEADLOCK_NOTES) {
        let entry = &traces[b.rank].entries[b.entry];
        let place = match b.stream {
            Some(s) => format!("stream {s}"),
            None => "host".to_string(),
        };
        let msg = format!(
            "rank {}, {place}: blocked at {}{}; {}",
            b.rank,
            entry.describe(),
            entry.site.iter_suffix(),
            b.waits_for
        );
        d = d.with_note(entry.site.loc, msg);
    }
    if dl.blocked.len() > MAX_DEADLOCK_NOTES {
        let loc = d.loc;
        d = d.with_note(loc, format!("{} more blocked streams not shown", dl.blocked.len() - MAX_DEADLOCK_NOTES));
    }
    d
}
