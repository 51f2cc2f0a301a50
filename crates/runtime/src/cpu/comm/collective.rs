//! Collectives by rendezvous: every member of a team posts, with a per-rank, per-team sequence
//! number (the n-th collective a rank posts over a team meets the n-th of every other member);
//! the member that completes the rendezvous checks that all posted the same op and moves the
//! data for everybody.
//!
//! Semantics (buffers as flattened row-major element sequences, `n` = team size, members in
//! the team's order, `root` a team-relative index):
//! - allgather: every output = the concatenation of the inputs (output holds n × input);
//! - allreduce: every output = the elementwise reduction of the inputs;
//! - reduce_scatter: member i's output = slice i (of n) of the reduction of the inputs;
//! - broadcast: every output = the root's input;
//! - reduce: the root's output = the reduction (other outputs are untouched);
//! - gather: the root's output = the concatenation (other outputs are untouched);
//! - scatter: member i's output = slice i of the root's input;
//! - all_to_all: slice j of member i's input lands in slice i of member j's output;
//! - collective_permute: every member sends its input to `send_to` and receives `recv_from`'s
//!   input (absolute ranks; equal to the member itself means a local copy).
//!
//! Reductions run in f64, in team order, and round once when written. Members must agree on
//! the op kind, the team (its order too), root, reduction, element count and element type; a
//! disagreement fails the collective for everybody with a message naming the ranks.

use super::{Communicator, Completion, PostInfo, Request, join_clocks, ranks_phrase, read_bytes, write_bytes};
use crate::buffer::View;
use crate::cpu::race::VClock;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::watchdog::{WaitInfo, lock};
use fuser_dialects::reduction::ReductionKind;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// A collective and its scalar parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    Allgather,
    Allreduce(ReductionKind),
    ReduceScatter(ReductionKind),
    /// `root`: team-relative.
    Broadcast {
        root: usize,
    },
    Reduce {
        root: usize,
        kind: ReductionKind,
    },
    Gather {
        root: usize,
    },
    Scatter {
        root: usize,
    },
    AllToAll,
    /// Absolute ranks.
    CollectivePermute {
        send_to: usize,
        recv_from: usize,
    },
}

impl Collective {
    pub fn name(self) -> &'static str {
        match self {
            Collective::Allgather => "allgather",
            Collective::Allreduce(_) => "allreduce",
            Collective::ReduceScatter(_) => "reduce_scatter",
            Collective::Broadcast { .. } => "broadcast",
            Collective::Reduce { .. } => "reduce",
            Collective::Gather { .. } => "gather",
            Collective::Scatter { .. } => "scatter",
            Collective::AllToAll => "all_to_all",
            Collective::CollectivePermute { .. } => "collective_permute",
        }
    }

    fn root(self) -> Option<usize> {
        match self {
            Collective::Broadcast { root }
            | Collective::Reduce { root, .. }
            | Collective::Gather { root }
            | Collective::Scatter { root } => Some(root),
            _ => None,
        }
    }

    fn reduction(self) -> Option<ReductionKind> {
        match self {
            Collective::Allreduce(k) | Collective::ReduceScatter(k) | Collective::Reduce { kind: k, .. } => Some(k),
            _ => None,
        }
    }

    /// The element count members must agree on: the input's, except where only the root
    /// reads its input (broadcast, scatter): there the output's.
    fn agreed_count(self, input: &View, output: &View) -> usize {
        match self {
            Collective::Broadcast { .. } | Collective::Scatter { .. } => output.numel(),
            _ => input.numel(),
        }
    }
}

/// What members must agree on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Signature {
    name: &'static str,
    team: Vec<usize>,
    root: Option<usize>,
    reduction: Option<ReductionKind>,
    count: usize,
    dtype: DType,
}

/// One member's post.
struct Post {
    rank: usize,
    op: Collective,
    sig: Signature,
    input: View,
    output: View,
    clock: Option<VClock>,
    /// The post was malformed on this rank (reported to it when posting); the collective fails.
    local_error: Option<RtError>,
}

/// One rendezvous: posts by position in the sorted team.
struct Slot {
    sorted: Vec<usize>,
    seq: u64,
    posts: Mutex<Vec<Option<Post>>>,
    done: Arc<Completion>,
}

impl Slot {
    fn missing(&self) -> Vec<usize> {
        let posts = lock(&self.posts);
        self.sorted.iter().zip(posts.iter()).filter(|(_, p)| p.is_none()).map(|(r, _)| *r).collect()
    }
}

impl Slot {
    /// `allreduce #3 of team [0, 1, 2]: ranks 0, 2 posted, rank 1 did not`.
    fn describe(&self) -> String {
        let posts = lock(&self.posts);
        let posted: Vec<usize> = posts.iter().flatten().map(|p| p.rank).collect();
        let name = posts.iter().flatten().next().map_or("collective", |p| p.op.name());
        drop(posts);
        format!(
            "{name} #{} of team {:?}: {} posted, {} did not",
            self.seq,
            self.sorted,
            ranks_phrase(&posted),
            ranks_phrase(&self.missing())
        )
    }
}

/// A rendezvous key: the sorted team and the sequence number.
type SlotKey = (Vec<usize>, u64);

/// Open rendezvous and sequence numbers.
pub(super) struct Rendezvous {
    slots: Mutex<FxHashMap<SlotKey, Arc<Slot>>>,
    /// Per rank: the next sequence number per sorted team.
    seqs: Vec<Mutex<FxHashMap<Vec<usize>, u64>>>,
}

impl Rendezvous {
    pub(super) fn new(world: usize) -> Rendezvous {
        Rendezvous {
            slots: Mutex::new(FxHashMap::default()),
            seqs: (0..world).map(|_| Mutex::new(FxHashMap::default())).collect(),
        }
    }

    /// The collectives some members posted and others did not, in words.
    pub(super) fn incomplete(&self) -> Vec<String> {
        let slots: Vec<Arc<Slot>> = lock(&self.slots).values().cloned().collect();
        let mut out: Vec<(Vec<usize>, u64, String)> =
            slots.iter().map(|s| (s.sorted.clone(), s.seq, s.describe())).collect();
        out.sort();
        out.into_iter().map(|(_, _, d)| d).collect()
    }

    fn next_seq(&self, rank: usize, sorted: &[usize]) -> u64 {
        let mut seqs = lock(&self.seqs[rank]);
        let n = seqs.entry(sorted.to_vec()).or_insert(0);
        *n += 1;
        *n - 1
    }

    fn slot(&self, sorted: &[usize], seq: u64) -> Arc<Slot> {
        let mut slots = lock(&self.slots);
        slots
            .entry((sorted.to_vec(), seq))
            .or_insert_with(|| {
                Arc::new(Slot {
                    sorted: sorted.to_vec(),
                    seq,
                    posts: Mutex::new((0..sorted.len()).map(|_| None).collect()),
                    done: Completion::new(),
                })
            })
            .clone()
    }

    /// Adds `post` at `position`; the posts, all of them, when this completed the slot.
    fn arrive(&self, slot: &Slot, position: usize, post: Post) -> Option<Vec<Post>> {
        let mut posts = lock(&slot.posts);
        posts[position] = Some(post);
        if posts.iter().any(Option::is_none) {
            return None;
        }
        let all: Vec<Post> = posts.iter_mut().map(|p| p.take().expect("all arrived")).collect();
        drop(posts);
        lock(&self.slots).remove(&(slot.sorted.clone(), slot.seq));
        Some(all)
    }
}

impl Communicator {
    /// Posts `op` over `team` (absolute ranks, in team order) for `at.rank`. Errors at once
    /// when the post itself is malformed (bad team, shapes, root); the collective then fails
    /// for the other members too. Otherwise returns a request that blocks the stream.
    pub fn post_collective(
        &self,
        at: &PostInfo,
        team: &[usize],
        op: Collective,
        input: &View,
        output: &View,
    ) -> RtResult<Request> {
        let rank = at.rank;
        let fail = |e: RtError| e.on_rank(rank).at(&at.key);
        self.check_team(rank, team).map_err(fail)?;
        let mut sorted = team.to_vec();
        sorted.sort_unstable();
        let seq = at.seq.unwrap_or_else(|| self.rendezvous.next_seq(rank, &sorted));
        let position_in_team = team.iter().position(|&r| r == rank).expect("rank in team");
        let local_error = check_shapes(team, position_in_team, op, input, output).err().map(fail);
        if let Some(remote) = &self.remote {
            return remote.post_collective(at, (team, seq), op, (input, output), local_error);
        }
        let sig = Signature {
            name: op.name(),
            team: team.to_vec(),
            root: op.root(),
            reduction: op.reduction(),
            count: op.agreed_count(input, output),
            dtype: output.dtype(),
        };
        let post = Post {
            rank,
            op,
            sig,
            input: input.clone(),
            output: output.clone(),
            clock: at.clock.clone(),
            local_error: local_error.clone(),
        };
        let slot = self.rendezvous.slot(&sorted, seq);
        let position = sorted.binary_search(&rank).expect("rank in team");
        if let Some(posts) = self.rendezvous.arrive(&slot, position, post) {
            slot.done.finish(complete(&sorted, seq, posts));
        }
        if let Some(e) = local_error {
            return Err(e);
        }
        let slot2 = slot.clone();
        let info = WaitInfo {
            rank,
            what: format!("{} #{seq} of team {team:?}", op.name()),
            key: Some(at.key.clone()),
            waiting_for: Arc::new(move || slot2.missing()),
        };
        Ok(Request::single(slot.done.clone(), info, true, &self.watchdog))
    }

    /// Reserves the sequence number of `rank`'s next collective over `team` (for
    /// [`PostInfo::with_seq`]); `None` when the team is malformed (the post then fails).
    pub fn reserve_collective(&self, rank: usize, team: &[usize]) -> Option<u64> {
        self.check_team(rank, team).ok()?;
        let mut sorted = team.to_vec();
        sorted.sort_unstable();
        Some(self.rendezvous.next_seq(rank, &sorted))
    }

    fn check_team(&self, rank: usize, team: &[usize]) -> RtResult<()> {
        self.check_rank("rank", rank)?;
        for &r in team {
            self.check_rank("team member", r)?;
        }
        let mut sorted = team.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != team.len() {
            return Err(RtError::new(format!("team {team:?} lists a rank twice")));
        }
        if !team.contains(&rank) {
            return Err(RtError::new(format!("rank {rank} posts a collective of team {team:?} it is not part of")));
        }
        Ok(())
    }

    /// Posts and waits (until the communicator's deadline).
    pub fn run_collective(
        &self,
        at: &PostInfo,
        team: &[usize],
        op: Collective,
        input: &View,
        output: &View,
    ) -> RtResult<()> {
        self.post_collective(at, team, op, input, output)?.wait(self.deadline())
    }

    pub fn allgather(&self, at: &PostInfo, team: &[usize], input: &View, output: &View) -> RtResult<()> {
        self.run_collective(at, team, Collective::Allgather, input, output)
    }

    pub fn allreduce(
        &self,
        at: &PostInfo,
        team: &[usize],
        kind: ReductionKind,
        input: &View,
        output: &View,
    ) -> RtResult<()> {
        self.run_collective(at, team, Collective::Allreduce(kind), input, output)
    }

    pub fn reduce_scatter(
        &self,
        at: &PostInfo,
        team: &[usize],
        kind: ReductionKind,
        input: &View,
        output: &View,
    ) -> RtResult<()> {
        self.run_collective(at, team, Collective::ReduceScatter(kind), input, output)
    }

    pub fn broadcast(&self, at: &PostInfo, team: &[usize], root: usize, input: &View, output: &View) -> RtResult<()> {
        self.run_collective(at, team, Collective::Broadcast { root }, input, output)
    }

    pub fn reduce(
        &self,
        at: &PostInfo,
        team: &[usize],
        root: usize,
        kind: ReductionKind,
        input: &View,
        output: &View,
    ) -> RtResult<()> {
        self.run_collective(at, team, Collective::Reduce { root, kind }, input, output)
    }

    pub fn gather(&self, at: &PostInfo, team: &[usize], root: usize, input: &View, output: &View) -> RtResult<()> {
        self.run_collective(at, team, Collective::Gather { root }, input, output)
    }

    pub fn scatter(&self, at: &PostInfo, team: &[usize], root: usize, input: &View, output: &View) -> RtResult<()> {
        self.run_collective(at, team, Collective::Scatter { root }, input, output)
    }

    pub fn all_to_all(&self, at: &PostInfo, team: &[usize], input: &View, output: &View) -> RtResult<()> {
        self.run_collective(at, team, Collective::AllToAll, input, output)
    }

    pub fn collective_permute(
        &self,
        at: &PostInfo,
        team: &[usize],
        send_to: usize,
        recv_from: usize,
        input: &View,
        output: &View,
    ) -> RtResult<()> {
        self.run_collective(at, team, Collective::CollectivePermute { send_to, recv_from }, input, output)
    }
}

// ----- checks ---------------------------------------------------------------------------------

/// What one member's buffers must satisfy on their own (`position`: the member's team index;
/// only the root's side of a rooted collective is checked).
fn check_shapes(team: &[usize], position: usize, op: Collective, input: &View, output: &View) -> RtResult<()> {
    let n = team.len();
    let (i, o) = (input.numel(), output.numel());
    let expect = |ok: bool, rule: &str| -> RtResult<()> {
        if ok {
            return Ok(());
        }
        Err(RtError::new(format!(
            "{}: input of {i} and output of {o} elements break the rule {rule} (team size {n})",
            op.name()
        )))
    };
    if input.dtype() != output.dtype() {
        return Err(RtError::new(format!(
            "{}: input of type {} and output of type {}",
            op.name(),
            input.dtype().name(),
            output.dtype().name()
        )));
    }
    if let Some(root) = op.root()
        && root >= n
    {
        return Err(RtError::new(format!("{}: root {root} is not a position of team {team:?}", op.name())));
    }
    let is_root = op.root() == Some(position);
    match op {
        Collective::Allgather => expect(o == n * i, "output = team size × input"),
        Collective::Gather { .. } => expect(!is_root || o == n * i, "output = team size × input"),
        Collective::Allreduce(_) => expect(o == i, "output = input"),
        Collective::Reduce { .. } | Collective::Broadcast { .. } => expect(!is_root || o == i, "output = input"),
        Collective::ReduceScatter(_) => expect(i == n * o, "input = team size × output"),
        Collective::Scatter { .. } => expect(!is_root || i == n * o, "input = team size × output"),
        Collective::AllToAll => expect(i == o && i % n == 0, "output = input, divisible by the team size"),
        Collective::CollectivePermute { send_to, recv_from } => {
            for (what, peer) in [("send_to", send_to), ("recv_from", recv_from)] {
                if !team.contains(&peer) {
                    return Err(RtError::new(format!("collective_permute: {what} {peer} is not in team {team:?}")));
                }
            }
            expect(o == i, "output = input")
        }
    }
}

/// Checks agreement and moves the data; the completion result shared by all members.
fn complete(sorted: &[usize], seq: u64, posts: Vec<Post>) -> RtResult<Option<VClock>> {
    check_agreement(sorted, seq, &posts)?;
    // Members in team order.
    let team = posts[0].sig.team.clone();
    let by_rank: FxHashMap<usize, &Post> = posts.iter().map(|p| (p.rank, p)).collect();
    let members: Vec<&Post> = team.iter().map(|r| by_rank[r]).collect();
    move_data(&members)?;
    Ok(join_clocks(posts.iter().map(|p| &p.clock)))
}

/// Fails with a message naming the ranks when the members disagree.
fn check_agreement(sorted: &[usize], seq: u64, posts: &[Post]) -> RtResult<()> {
    let failed: Vec<&Post> = posts.iter().filter(|p| p.local_error.is_some()).collect();
    // Group members by signature; the largest group (ties: lowest rank) is the reference.
    let mut groups: Vec<(Signature, Vec<usize>)> = Vec::new();
    for p in posts.iter().filter(|p| p.local_error.is_none()) {
        match groups.iter_mut().find(|(s, _)| *s == p.sig) {
            Some((_, ranks)) => ranks.push(p.rank),
            None => groups.push((p.sig.clone(), vec![p.rank])),
        }
    }
    // Printed by lowest rank, except that a strict majority comes last (the reference: "rank 2
    // posts X, ranks 0, 1, 3 post Y").
    groups.sort_by_key(|(_, ranks)| ranks[0]);
    let largest = groups.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
    if groups.iter().filter(|(_, r)| r.len() == largest).count() == 1 {
        let at = groups.iter().position(|(_, r)| r.len() == largest).expect("largest exists");
        let majority = groups.remove(at);
        groups.push(majority);
    }
    let reference = match groups.iter().filter(|(_, r)| r.len() == largest).count() {
        1 => groups.last(),
        _ => groups.first(),
    }
    .map(|(s, _)| s.clone())
    .unwrap_or_else(|| posts[0].sig.clone());
    let header =
        format!("{} #{seq} of team {:?}", reference.name, if groups.is_empty() { sorted } else { &reference.team });
    if !failed.is_empty() {
        let reasons: Vec<String> = failed
            .iter()
            .map(|p| format!("rank {} could not post ({})", p.rank, p.local_error.as_ref().expect("failed").message))
            .collect();
        return Err(RtError::new(format!("{header}: {}", reasons.join("; "))));
    }
    if groups.len() > 1 {
        let differs = Differs::of(&groups);
        let parts: Vec<String> = groups
            .iter()
            .map(|(sig, ranks)| {
                let verb = if ranks.len() == 1 { "posts" } else { "post" };
                format!("{} {verb} {}", ranks_phrase(ranks), differs.describe(sig))
            })
            .collect();
        return Err(RtError::new(format!("{header}: {}", parts.join(", "))));
    }
    if let Collective::CollectivePermute { .. } = posts[0].op {
        check_permutation(&header, posts)?;
    }
    Ok(())
}

/// Which signature fields differ among the groups (only those are printed).
struct Differs {
    name: bool,
    team: bool,
    root: bool,
    reduction: bool,
    count: bool,
    dtype: bool,
}

impl Differs {
    fn of(groups: &[(Signature, Vec<usize>)]) -> Differs {
        let s0 = &groups[0].0;
        let any = |f: &dyn Fn(&Signature) -> bool| groups.iter().any(|(s, _)| f(s));
        Differs {
            name: any(&|s| s.name != s0.name),
            team: any(&|s| s.team != s0.team),
            root: any(&|s| s.root != s0.root),
            reduction: any(&|s| s.reduction != s0.reduction),
            count: any(&|s| s.count != s0.count),
            dtype: any(&|s| s.dtype != s0.dtype),
        }
    }

    /// `allgather with 64 elements`, `allreduce (max)`, `broadcast with root 1`, ...
    fn describe(&self, sig: &Signature) -> String {
        let mut s = sig.name.to_string();
        if self.count || self.name {
            s += &format!(" with {} elements", sig.count);
        }
        if self.dtype {
            s += &format!(" of {}", sig.dtype.name());
        }
        if self.root {
            match sig.root {
                Some(r) => s += &format!(" with root {r}"),
                None => s += " without root",
            }
        }
        if self.reduction
            && let Some(k) = sig.reduction
        {
            s += &format!(" ({})", k.keyword());
        }
        if self.team {
            s += &format!(" over team {:?}", sig.team);
        }
        s
    }
}

/// Every member receives from the rank that sends to it.
fn check_permutation(header: &str, posts: &[Post]) -> RtResult<()> {
    let peers = |p: &Post| match p.op {
        Collective::CollectivePermute { send_to, recv_from } => (send_to, recv_from),
        _ => (p.rank, p.rank),
    };
    for p in posts {
        let (_, from) = peers(p);
        let sender = posts.iter().find(|q| q.rank == from).expect("recv_from checked in team");
        if peers(sender).0 != p.rank {
            return Err(RtError::new(format!(
                "{header}: rank {} receives from rank {from}, which sends to rank {}",
                p.rank,
                peers(sender).0
            )));
        }
    }
    Ok(())
}

// ----- data movement --------------------------------------------------------------------------

fn move_data(members: &[&Post]) -> RtResult<()> {
    let n = members.len();
    let op = members[0].op;
    let size = members[0].input.dtype().size();
    match op {
        Collective::Allgather | Collective::Gather { .. } => {
            let all: Vec<u8> = members.iter().flat_map(|m| read_bytes(&m.input)).collect();
            for (i, m) in members.iter().enumerate() {
                if op.root().is_none_or(|r| r == i) {
                    write_bytes(&m.output, &all);
                }
            }
        }
        Collective::Allreduce(kind) | Collective::Reduce { kind, .. } => {
            let reduced = reduce_inputs(members, kind);
            for (i, m) in members.iter().enumerate() {
                if op.root().is_none_or(|r| r == i) {
                    reduced.write(&m.output, 0, reduced.len())?;
                }
            }
        }
        Collective::ReduceScatter(kind) => {
            let reduced = reduce_inputs(members, kind);
            let chunk = reduced.len() / n;
            for (i, m) in members.iter().enumerate() {
                reduced.write(&m.output, i * chunk, chunk)?;
            }
        }
        Collective::Broadcast { root } => {
            let data = read_bytes(&members[root].input);
            for m in members {
                write_bytes(&m.output, &data);
            }
        }
        Collective::Scatter { root } => {
            let data = read_bytes(&members[root].input);
            let chunk = data.len() / n;
            for (i, m) in members.iter().enumerate() {
                write_bytes(&m.output, &data[i * chunk..(i + 1) * chunk]);
            }
        }
        Collective::AllToAll => {
            let inputs: Vec<Vec<u8>> = members.iter().map(|m| read_bytes(&m.input)).collect();
            let chunk = members[0].input.numel() / n * size;
            for (j, m) in members.iter().enumerate() {
                let out: Vec<u8> =
                    inputs.iter().flat_map(|inp| inp[j * chunk..(j + 1) * chunk].iter().copied()).collect();
                write_bytes(&m.output, &out);
            }
        }
        Collective::CollectivePermute { .. } => {
            let inputs: FxHashMap<usize, Vec<u8>> = members.iter().map(|m| (m.rank, read_bytes(&m.input))).collect();
            for m in members {
                let Collective::CollectivePermute { recv_from, .. } = m.op else { continue };
                write_bytes(&m.output, &inputs[&recv_from]);
            }
        }
    }
    Ok(())
}

/// A reduced vector: floats, or integers reduced exactly (wrapping, `numerics::int_combine`).
enum Reduced {
    Floats(Vec<f64>),
    Ints(Vec<i64>),
}

impl Reduced {
    fn len(&self) -> usize {
        match self {
            Reduced::Floats(v) => v.len(),
            Reduced::Ints(v) => v.len(),
        }
    }

    /// Stores elements `start..start + len` into `out`.
    fn write(&self, out: &View, start: usize, len: usize) -> RtResult<()> {
        match self {
            Reduced::Floats(v) => out.write(&v[start..start + len]),
            Reduced::Ints(v) => out.write_ints(&v[start..start + len]),
        }
    }
}

/// The elementwise reduction of the members' inputs, in team order (integers wrap at their
/// element width, floats combine in `f64` and round when stored).
fn reduce_inputs(members: &[&Post], kind: ReductionKind) -> Reduced {
    let dtype = members[0].input.dtype();
    if dtype.is_int() {
        let mut acc = members[0].input.read_ints();
        for m in &members[1..] {
            for (a, b) in acc.iter_mut().zip(m.input.read_ints()) {
                *a = crate::numerics::int_combine(kind, dtype, *a, b);
            }
        }
        return Reduced::Ints(acc);
    }
    let mut acc = members[0].input.read();
    for m in &members[1..] {
        for (a, b) in acc.iter_mut().zip(m.input.read()) {
            *a = kind.combine(*a, b);
        }
    }
    Reduced::Floats(acc)
}
