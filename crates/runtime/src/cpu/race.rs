//! The race checker of the CPU backend: vector clocks over streams.
//!
//! Every stream (named by [`StreamKey`] = (rank, stream index)) has a vector clock `C_s`, one
//! entry per stream the checker has seen; entries of unseen streams are 0 and a stream's own
//! entry starts at 1. An access made by stream `s` is stamped with the epoch `(s, C_s[s])`.
//! An earlier access stamped `(t, e)` happens before the current access of `s` iff `t == s`
//! (program order on one stream) or `e <= C_s[t]`.
//!
//! Joins:
//! - [`RaceChecker::on_record`] returns a snapshot of `C_s` (an event) and then advances
//!   `C_s[s]`, so that later accesses of `s` are not covered by the event;
//! - [`RaceChecker::on_wait`] joins a snapshot into a stream (`stream_wait` on an event, and
//!   `comm.wait` on a request: the snapshot taken when the communication was posted, joined with
//!   those of its counterparts when the communicator carried them, see `comm::Request::joined_clock`);
//! - [`RaceChecker::on_sync`] (host synchronize of one stream): every stream of that rank joins
//!   the synchronized stream (work posted after the synchronize is ordered after it).
//!
//! Transfers: a communication that does not keep its posting stream busy (the ops of a
//! `comm.group`, a CUDA IPC `put` receive or `get` send) reads and writes its buffers at some time between its
//! post and its wait. [`RaceChecker::on_transfer`] therefore makes its accesses on a *transfer
//! lane*, a pseudo-stream of the rank that starts from the posting stream's clock and that only
//! a join of the returned clock (`comm.wait`) orders anything after: any other access of those
//! buffers before the wait, on any stream (the posting one included), is a race, reported as
//! the communication's access lasting "until its comm.wait". A lane is reused for a later post
//! from a stream that already joined its last transfer (so histories stay bounded in loops that
//! wait); [`RaceChecker::unwaited`] lists the transfers of a rank that no stream of the rank
//! ever joined (a missing `comm.wait`).
//!
//! The executor calls these methods from each rank's host thread in program order, when it
//! posts work (not when the work runs), so reports do not depend on thread timing. A
//! conflicting pair is two accesses of one buffer from different streams on overlapping element
//! ranges, at least one a write, the earlier not happening before the later.
//!
//! Strided accesses: an access may carry its exact [`Lattice`] (offset, shape, strides); two
//! accesses whose hull ranges overlap are still disjoint when their lattices provably share no
//! element (e.g. two column chunks of one row-major matrix). Without lattices, hull ranges are
//! compared (never misses a race, may report one between interleaved disjoint views).
//!
//! Cost: a disabled checker ([`RaceChecker::disabled`]) returns at the first instruction of
//! every method. Per buffer, an access supersedes the earlier accesses of its own stream that it
//! covers (same or wider range, and a write or the earlier a read), which keeps the history of
//! loops bounded; [`RaceChecker::on_free`] drops a buffer's history.

use crate::error::{OpKey, RtError};
use rustc_hash::FxHashMap;
use std::fmt;

/// A stream: (rank, stream index). The executor may also name the host thread of a rank as a
/// pseudo-stream for host-side accesses; indices from `usize::MAX / 2` up are the checker's
/// own transfer lanes.
pub type StreamKey = (usize, usize);

/// A vector clock: entry `i` belongs to the stream the checker numbered `i`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VClock(Vec<u64>);

impl VClock {
    pub fn get(&self, i: usize) -> u64 {
        self.0.get(i).copied().unwrap_or(0)
    }

    fn set(&mut self, i: usize, v: u64) {
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        self.0[i] = v;
    }

    /// Entry-wise maximum.
    pub fn join(&mut self, other: &VClock) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = (*a).max(*b);
        }
    }
}

/// One access of a task to a buffer.
#[derive(Clone, Debug)]
pub struct Access {
    pub buffer: u64,
    /// Half-open element range (`View::element_range`).
    pub range: (usize, usize),
    pub write: bool,
    pub key: OpKey,
}

#[derive(Clone, Debug)]
struct Stamped {
    stream: usize,
    epoch: u64,
    range: (usize, usize),
    write: bool,
    key: OpKey,
    lattice: Option<Lattice>,
    /// The stream that made the access, as reports name it (a transfer: its posting stream).
    shown: StreamKey,
    /// The access of a transfer, lasting until its wait.
    in_flight: bool,
}

impl Stamped {
    fn side(&self) -> RaceSide {
        RaceSide { stream: self.shown, key: self.key.clone(), write: self.write, in_flight: self.in_flight }
    }
}

/// The largest lattice [`Lattice::disjoint`] lists element by element when its strides do not
/// decide.
const EXACT_ELEMENTS: usize = 1 << 16;

/// The exact elements of a strided access: `offset + sum(i[d] * strides[d])` for
/// `i[d] < shape[d]` (row-major strides, outermost first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
}

impl Lattice {
    /// Per dimension, the interval of coordinates the lattice covers in the mixed-radix system
    /// of its strides, and the residue below the innermost stride; `None` when the strides are
    /// not nested (each a multiple of the next, decreasing) or a dimension overflows its radix.
    fn boxes(&self) -> Option<(Vec<(usize, usize)>, usize)> {
        let n = self.strides.len();
        if n == 0 || self.shape.len() != n || self.strides.contains(&0) {
            return None;
        }
        let mut rest = self.offset;
        let mut out = Vec::with_capacity(n);
        for d in 0..n {
            let s = self.strides[d];
            if d > 0 {
                let outer = self.strides[d - 1];
                if !outer.is_multiple_of(s) || outer <= s {
                    return None;
                }
            }
            let c = rest / s;
            rest %= s;
            if d > 0 && c + self.shape[d] > self.strides[d - 1] / s {
                return None;
            }
            out.push((c, c + self.shape[d]));
        }
        Some((out, rest))
    }

    /// The same set of elements with the axes that do not change it dropped (extent 1, or
    /// stride 0: a broadcast repeats elements) and the rest ordered by decreasing stride (a
    /// permuted view covers what the unpermuted one covers); `None` when it is empty.
    fn normalized(&self) -> Option<Lattice> {
        if self.shape.contains(&0) {
            return None;
        }
        let mut axes: Vec<(usize, usize)> = (0..self.shape.len().min(self.strides.len()))
            .filter(|&d| self.shape[d] > 1 && self.strides[d] > 0)
            .map(|d| (self.shape[d], self.strides[d]))
            .collect();
        axes.sort_by_key(|a| std::cmp::Reverse(a.1));
        if axes.is_empty() {
            axes.push((1, 1));
        }
        Some(Lattice {
            offset: self.offset,
            shape: axes.iter().map(|a| a.0).collect(),
            strides: axes.iter().map(|a| a.1).collect(),
        })
    }

    /// Whether the lattice holds every element of `range` (its hull): a dense view.
    pub fn fills(&self, range: (usize, usize)) -> bool {
        match self.normalized() {
            None => range.0 == range.1,
            Some(n) => n.shape.iter().product::<usize>() == range.1 - range.0 && self.offset == range.0,
        }
    }

    /// Whether the two lattices provably share no element.
    pub fn disjoint(&self, other: &Lattice) -> bool {
        let (Some(a), Some(b)) = (self.normalized(), other.normalized()) else { return true };
        let boxed = if a.strides == b.strides {
            a.disjoint_normalized(&b)
        } else {
            // Different strides (a chunk of a view vs a slice of it): compare both in the union
            // of their strides, each padded with axes of extent 1, when that union is nested.
            let mut union: Vec<usize> = a.strides.iter().chain(&b.strides).copied().collect();
            union.sort_unstable_by(|x, y| y.cmp(x));
            union.dedup();
            !union.windows(2).any(|w| !w[0].is_multiple_of(w[1]))
                && a.padded_to(&union).disjoint_normalized(&b.padded_to(&union))
        };
        // The boxes cannot tell when an axis of one lattice spans several radix digits of the
        // other (a stride-2 slice of a chunk against the next chunk's rows, both dense
        // innermost: fuser-lowerfuzz, seed 105775); small lattices are compared element by
        // element.
        boxed || a.disjoint_by_elements(&b).unwrap_or(false)
    }

    /// The elements, sorted, when there are at most [`EXACT_ELEMENTS`].
    fn elements(&self) -> Option<Vec<usize>> {
        let n = self.shape.iter().try_fold(1usize, |acc, &e| acc.checked_mul(e))?;
        if n > EXACT_ELEMENTS {
            return None;
        }
        let mut out = vec![self.offset];
        for (&extent, &stride) in self.shape.iter().zip(&self.strides) {
            out = out.iter().flat_map(|&base| (0..extent).map(move |i| base + i * stride)).collect();
        }
        out.sort_unstable();
        Some(out)
    }

    /// Whether the two share no element, by listing both; `None` when either is too large.
    fn disjoint_by_elements(&self, other: &Lattice) -> Option<bool> {
        let (a, b) = (self.elements()?, other.elements()?);
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => return Some(false),
            }
        }
        Some(true)
    }

    /// This (normalized) lattice over the strides `union` (a superset of its own, decreasing),
    /// with extent 1 on the axes it lacks.
    fn padded_to(&self, union: &[usize]) -> Lattice {
        let shape =
            union.iter().map(|s| self.strides.iter().position(|t| t == s).map_or(1, |d| self.shape[d])).collect();
        Lattice { offset: self.offset, shape, strides: union.to_vec() }
    }

    fn disjoint_normalized(&self, other: &Lattice) -> bool {
        if self.strides != other.strides {
            return false;
        }
        match (self.boxes(), other.boxes()) {
            (Some((a, ra)), Some((b, rb))) => ra != rb || a.iter().zip(&b).any(|(x, y)| x.1 <= y.0 || y.1 <= x.0),
            _ => false,
        }
    }
}

/// `host.copy at f.mlir:14:5`, or `host.copy (op #3)` without a location.
fn describe_op(f: &mut fmt::Formatter<'_>, key: &OpKey) -> fmt::Result {
    match &key.loc {
        Some(loc) => write!(f, "{} at {loc}", key.name),
        None => write!(f, "{} (op #{})", key.name, key.index),
    }
}

/// One access of a race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceSide {
    /// The stream that made it (a transfer: the stream that posted the communication).
    pub stream: StreamKey,
    pub key: OpKey,
    pub write: bool,
    /// The access of a transfer ([`RaceChecker::on_transfer`]): it lasts until the wait.
    pub in_flight: bool,
}

impl fmt::Display for RaceSide {
    /// `host.copy at f.mlir:14:5 on rank 0 stream 2 reads`, `comm.recv at f.mlir:9:7 on rank 0
    /// stream 1 writes until its comm.wait`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        describe_op(f, &self.key)?;
        let verb = if self.write { "writes" } else { "reads" };
        write!(f, " on rank {} stream {} {verb}", self.stream.0, self.stream.1)?;
        if self.in_flight {
            f.write_str(" until its comm.wait")?;
        }
        Ok(())
    }
}

/// Two unordered conflicting accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub buffer: u64,
    /// The overlap of the two ranges.
    pub range: (usize, usize),
    pub first: RaceSide,
    pub second: RaceSide,
}

impl fmt::Display for Race {
    /// `race on buffer #7 elements [16, 32): host.matmul at f.mlir:9:7 on rank 0 stream 1
    /// writes, host.copy at f.mlir:14:5 on rank 0 stream 2 reads without ordering`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "race on buffer #{} elements [{}, {}): ", self.buffer, self.range.0, self.range.1)?;
        write!(f, "{}, {} without ordering", self.first, self.second)
    }
}

impl Race {
    pub fn to_error(&self) -> RtError {
        RtError::new(self.to_string()).on_rank(self.second.stream.0).at(&self.second.key)
    }
}

/// A transfer that no stream of its rank ever joined: its `comm.wait` is missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwaited {
    /// The posting stream.
    pub stream: StreamKey,
    pub key: OpKey,
}

impl fmt::Display for Unwaited {
    /// `comm.recv at f.mlir:9:7 on rank 1 stream 2 is never waited for: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        describe_op(f, &self.key)?;
        write!(
            f,
            " on rank {} stream {} is never waited for: it does not hold its stream, so its buffers \
             stay in use until a comm.wait on its request, and none comes",
            self.stream.0, self.stream.1
        )
    }
}

impl Unwaited {
    pub fn to_error(&self) -> RtError {
        RtError::new(self.to_string()).on_rank(self.stream.0).at(&self.key)
    }
}

/// A transfer lane of a rank: the pseudo-stream (dense number) on which non-blocking
/// communications make their accesses, and its last transfer.
#[derive(Clone, Debug)]
struct Lane {
    rank: usize,
    number: usize,
    last: Option<Transfer>,
}

/// The last transfer of a lane: who posted it and the epoch a wait must have joined.
#[derive(Clone, Debug)]
struct Transfer {
    poster: StreamKey,
    key: OpKey,
    epoch: u64,
}

/// Stream indices from here up name transfer lanes (never a real stream).
const LANE_BASE: usize = usize::MAX / 2;

/// The checker: clocks of streams, access histories of buffers, races found.
#[derive(Default)]
pub struct RaceChecker {
    enabled: bool,
    numbering: FxHashMap<StreamKey, usize>,
    keys: Vec<StreamKey>,
    clocks: Vec<VClock>,
    history: FxHashMap<u64, Vec<Stamped>>,
    races: Vec<Race>,
    lanes: Vec<Lane>,
}

impl RaceChecker {
    pub fn new() -> RaceChecker {
        RaceChecker { enabled: true, ..RaceChecker::default() }
    }

    /// A checker whose methods do nothing.
    pub fn disabled() -> RaceChecker {
        RaceChecker::default()
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Races found so far, in order.
    pub fn races(&self) -> &[Race] {
        &self.races
    }

    /// The dense number of `stream`, creating its clock on first sight.
    fn number(&mut self, stream: StreamKey) -> usize {
        if let Some(&n) = self.numbering.get(&stream) {
            return n;
        }
        let n = self.keys.len();
        self.numbering.insert(stream, n);
        self.keys.push(stream);
        let mut clock = VClock::default();
        clock.set(n, 1);
        self.clocks.push(clock);
        n
    }

    /// Checks `access` by `stream` against the history of its buffer and records it. Returns the
    /// first race it takes part in (all are kept in [`RaceChecker::races`]).
    pub fn on_access(&mut self, stream: StreamKey, access: Access) -> Option<Race> {
        self.on_access_strided(stream, access, None)
    }

    /// [`RaceChecker::on_access`] with the exact elements of a strided access (its `range` is
    /// the hull).
    pub fn on_access_strided(&mut self, stream: StreamKey, access: Access, lattice: Option<Lattice>) -> Option<Race> {
        if !self.enabled {
            return None;
        }
        let s = self.number(stream);
        self.access(s, stream, false, access, lattice)
    }

    /// Checks and records `access` made by the stream numbered `s`, shown in reports as
    /// `shown` (`in_flight`: an access of a transfer).
    fn access(
        &mut self,
        s: usize,
        shown: StreamKey,
        in_flight: bool,
        access: Access,
        lattice: Option<Lattice>,
    ) -> Option<Race> {
        let clock = &self.clocks[s];
        let history = self.history.entry(access.buffer).or_default();
        let stamped = Stamped {
            stream: s,
            epoch: clock.get(s),
            range: access.range,
            write: access.write,
            key: access.key,
            lattice,
            shown,
            in_flight,
        };
        let mut found = None;
        for earlier in history.iter() {
            if earlier.stream == s || !(earlier.write || stamped.write) {
                continue;
            }
            let overlap = (earlier.range.0.max(stamped.range.0), earlier.range.1.min(stamped.range.1));
            if overlap.0 >= overlap.1 || earlier.epoch <= clock.get(earlier.stream) {
                continue;
            }
            if let (Some(a), Some(b)) = (&earlier.lattice, &stamped.lattice)
                && a.disjoint(b)
            {
                continue;
            }
            let race = Race { buffer: access.buffer, range: overlap, first: earlier.side(), second: stamped.side() };
            found.get_or_insert_with(|| race.clone());
            self.races.push(race);
        }
        history.retain(|e| !supersedes(&stamped, e));
        history.push(stamped);
        found
    }

    /// A communication posted on `stream` that does not keep the stream busy: its `accesses`
    /// happen on a transfer lane that starts from `stream`'s clock and is ordered before
    /// nothing until the returned clock is joined (`comm.wait`: [`RaceChecker::on_wait`]).
    /// Returns that clock and the first race the accesses take part in.
    pub fn on_transfer(
        &mut self,
        stream: StreamKey,
        key: &OpKey,
        accesses: Vec<(Access, Option<Lattice>)>,
    ) -> (VClock, Option<Race>) {
        if !self.enabled {
            return (VClock::default(), None);
        }
        let s = self.number(stream);
        // Work the stream posts later is not covered by what the transfer starts from.
        let post = self.record_number(s);
        let lane = self.free_lane(stream.0, s);
        let number = self.lanes[lane].number;
        self.clocks[number].join(&post);
        let mut found = None;
        for (access, lattice) in accesses {
            if let Some(race) = self.access(number, stream, true, access, lattice) {
                found.get_or_insert(race);
            }
        }
        let done = self.record_number(number);
        self.lanes[lane].last = Some(Transfer { poster: stream, key: key.clone(), epoch: done.get(number) });
        (done, found)
    }

    /// A lane of `rank` whose last transfer the stream numbered `s` has joined (so that the
    /// next transfer, posted by `s`, really runs after it), or a new one.
    fn free_lane(&mut self, rank: usize, s: usize) -> usize {
        let clock = &self.clocks[s];
        let free = self
            .lanes
            .iter()
            .position(|l| l.rank == rank && l.last.as_ref().is_none_or(|t| t.epoch <= clock.get(l.number)));
        if let Some(lane) = free {
            return lane;
        }
        let index = LANE_BASE + self.lanes.iter().filter(|l| l.rank == rank).count();
        let number = self.number((rank, index));
        self.lanes.push(Lane { rank, number, last: None });
        self.lanes.len() - 1
    }

    /// The transfers of `rank` that no (real) stream of the rank joined: their `comm.wait` is
    /// missing. Call it once the rank's host posted everything.
    pub fn unwaited(&self, rank: usize) -> Vec<Unwaited> {
        if !self.enabled {
            return Vec::new();
        }
        let streams: Vec<usize> =
            (0..self.keys.len()).filter(|&n| self.keys[n].0 == rank && !is_lane(self.keys[n])).collect();
        self.lanes
            .iter()
            .filter(|l| l.rank == rank)
            .filter_map(|l| l.last.as_ref().map(|t| (l.number, t)))
            .filter(|(number, t)| !streams.iter().any(|&s| self.clocks[s].get(*number) >= t.epoch))
            .map(|(_, t)| Unwaited { stream: t.poster, key: t.key.clone() })
            .collect()
    }

    /// An event recorded on `stream`: the snapshot to join later; advances the stream's epoch.
    pub fn on_record(&mut self, stream: StreamKey) -> VClock {
        if !self.enabled {
            return VClock::default();
        }
        let s = self.number(stream);
        self.record_number(s)
    }

    /// [`RaceChecker::on_record`] of the stream numbered `s`.
    fn record_number(&mut self, s: usize) -> VClock {
        let snapshot = self.clocks[s].clone();
        let next = snapshot.get(s) + 1;
        self.clocks[s].set(s, next);
        snapshot
    }

    /// `stream` waits for an event (or a completed communication) with clock `event`.
    pub fn on_wait(&mut self, stream: StreamKey, event: &VClock) {
        if !self.enabled {
            return;
        }
        let s = self.number(stream);
        self.clocks[s].join(event);
    }

    /// The host of `stream`'s rank synchronized `stream`: every stream of that rank now runs
    /// after everything posted to `stream` so far.
    pub fn on_sync(&mut self, stream: StreamKey) {
        if !self.enabled {
            return;
        }
        let snapshot = self.on_record(stream);
        let rank = stream.0;
        for (n, &key) in self.keys.iter().enumerate() {
            // A synchronize waits for streams, not for transfers in flight.
            if key.0 == rank && !is_lane(key) {
                self.clocks[n].join(&snapshot);
            }
        }
    }

    /// Forgets the history of a deallocated buffer.
    pub fn on_free(&mut self, buffer: u64) {
        if self.enabled {
            self.history.remove(&buffer);
        }
    }
}

/// Whether `key` names a transfer lane rather than a stream.
fn is_lane(key: StreamKey) -> bool {
    key.1 >= LANE_BASE
}

/// Whether `new` makes `old` redundant: same stream, `old`'s range inside `new`'s, and `new` a
/// write or `old` a read (anything conflicting with `old` later conflicts with `new`, which is
/// ordered no earlier).
fn supersedes(new: &Stamped, old: &Stamped) -> bool {
    // A strided access covers only part of its hull: it supersedes only its equal.
    let dense = new.lattice.as_ref().is_none_or(|l| l.fills(new.range));
    let covers = dense || new.lattice == old.lattice;
    covers
        && new.stream == old.stream
        && new.range.0 <= old.range.0
        && old.range.1 <= new.range.1
        && (new.write || !old.write)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str, loc: &str) -> OpKey {
        OpKey { index: 0, loc: Some(loc.into()), name: name.into() }
    }

    fn access(buffer: u64, range: (usize, usize), write: bool, k: OpKey) -> Access {
        Access { buffer, range, write, key: k }
    }

    /// Stream 1 writes [0, 32) (matmul), stream 2 reads [16, 48) (copy), with or without the
    /// `stream_wait` in between.
    fn two_streams(with_wait: bool) -> Option<Race> {
        let mut rc = RaceChecker::new();
        let (s1, s2) = ((0, 1), (0, 2));
        assert!(rc.on_access(s1, access(7, (0, 32), true, key("host.matmul", "f.mlir:9:7"))).is_none());
        if with_wait {
            let e = rc.on_record(s1);
            rc.on_wait(s2, &e);
        }
        rc.on_access(s2, access(7, (16, 48), false, key("host.copy", "f.mlir:14:5")))
    }

    #[test]
    fn a_missing_stream_wait_is_a_race() {
        let race = two_streams(false).expect("race");
        assert_eq!(
            race.to_string(),
            "race on buffer #7 elements [16, 32): host.matmul at f.mlir:9:7 on rank 0 stream 1 writes, \
             host.copy at f.mlir:14:5 on rank 0 stream 2 reads without ordering"
        );
    }

    #[test]
    fn a_stream_wait_orders_the_accesses() {
        assert!(two_streams(true).is_none());
    }

    #[test]
    fn an_event_does_not_cover_later_work() {
        let mut rc = RaceChecker::new();
        let e = rc.on_record((0, 1));
        rc.on_access((0, 1), access(1, (0, 4), true, key("a", "x:1:1")));
        rc.on_wait((0, 2), &e);
        assert!(rc.on_access((0, 2), access(1, (0, 4), false, key("b", "x:2:1"))).is_some());
    }

    #[test]
    fn reads_do_not_conflict_and_disjoint_ranges_do_not_conflict() {
        let mut rc = RaceChecker::new();
        rc.on_access((0, 1), access(1, (0, 8), false, key("a", "x:1:1")));
        assert!(rc.on_access((0, 2), access(1, (0, 8), false, key("b", "x:2:1"))).is_none());
        rc.on_access((0, 1), access(2, (0, 8), true, key("a", "x:1:1")));
        assert!(rc.on_access((0, 2), access(2, (8, 16), true, key("b", "x:2:1"))).is_none());
        // Same stream: program order.
        assert!(rc.on_access((0, 1), access(2, (0, 8), true, key("c", "x:3:1"))).is_none());
        // ... but the later write of stream 1 is not ordered after stream 2's.
        assert!(rc.on_access((0, 1), access(2, (0, 16), true, key("d", "x:4:1"))).is_some());
    }

    #[test]
    fn host_synchronize_orders_later_work_of_every_stream_of_the_rank() {
        let mut rc = RaceChecker::new();
        rc.on_access((0, 2), access(3, (0, 8), false, key("x", "x:0:1")));
        rc.on_access((0, 1), access(3, (0, 8), true, key("a", "x:1:1")));
        rc.on_sync((0, 1));
        assert!(rc.on_access((0, 2), access(3, (0, 8), true, key("b", "x:2:1"))).is_none());
        // Another rank's streams are not ordered by rank 0's synchronize.
        rc.on_access((1, 1), access(4, (0, 8), true, key("c", "x:3:1")));
        rc.on_sync((0, 1));
        assert!(rc.on_access((1, 2), access(4, (0, 8), true, key("d", "x:4:1"))).is_some());
    }

    #[test]
    fn joins_are_transitive() {
        // s1 writes, s2 waits for s1, s3 waits for s2 (recorded after the wait): s3 may read.
        let mut rc = RaceChecker::new();
        rc.on_access((0, 1), access(5, (0, 4), true, key("w", "x:1:1")));
        let e1 = rc.on_record((0, 1));
        rc.on_wait((0, 2), &e1);
        let e2 = rc.on_record((0, 2));
        rc.on_wait((0, 3), &e2);
        assert!(rc.on_access((0, 3), access(5, (0, 4), false, key("r", "x:2:1"))).is_none());
    }

    #[test]
    fn loops_keep_the_history_bounded_and_free_clears_it() {
        let mut rc = RaceChecker::new();
        for _ in 0..1000 {
            rc.on_access((0, 1), access(9, (0, 64), true, key("w", "x:1:1")));
            rc.on_access((0, 1), access(9, (0, 64), false, key("r", "x:2:1")));
        }
        assert_eq!(rc.history[&9].len(), 2);
        rc.on_free(9);
        assert!(!rc.history.contains_key(&9));
    }

    #[test]
    fn interleaved_column_chunks_are_disjoint_but_overlapping_ones_race() {
        // Size-1 axes, broadcast axes and permuted strides do not hide disjointness (the stream
        // chunks of a [3, 6, 1] tensor split on axis 1 have strides [6, 1, 1]; found by
        // fuser-lowerfuzz, seed 1063), nor make distinct elements look disjoint.
        let chunk = |c: usize| Lattice { offset: 2 * c, shape: vec![3, 2, 1], strides: vec![6, 1, 1] };
        assert!(chunk(0).disjoint(&chunk(1)) && !chunk(1).disjoint(&chunk(1)));
        let permuted = |c: usize| Lattice { offset: 2 * c, shape: vec![2, 3], strides: vec![1, 6] };
        assert!(permuted(0).disjoint(&chunk(1)) && !permuted(1).disjoint(&chunk(1)));
        let bcast = Lattice { offset: 0, shape: vec![4, 3, 2], strides: vec![0, 6, 1] };
        assert!(bcast.disjoint(&chunk(1)) && !bcast.disjoint(&chunk(0)));
        // A slice of one chunk (other strides) against the other chunk (fuser-lowerfuzz, seed
        // 770669): rows 2..4 of batch 0 of a [2, 4, 4] buffer vs rows 0..2 of both batches.
        let rows01 = Lattice { offset: 0, shape: vec![2, 2, 4], strides: vec![16, 4, 1] };
        let slice = |row: usize| Lattice { offset: 4 * row, shape: vec![1, 2, 4], strides: vec![16, 4, 1] };
        assert!(rows01.disjoint(&slice(2)) && !rows01.disjoint(&slice(1)));
        // A run across two radix digits is not representable in the boxes: small lattices are
        // compared element by element (elements [8, 16) lie between the two batches' rows).
        let flat = Lattice { offset: 8, shape: vec![8], strides: vec![1] };
        assert!(rows01.disjoint(&flat));
        let flat_over = Lattice { offset: 9, shape: vec![8], strides: vec![1] };
        assert!(!rows01.disjoint(&flat_over));
        // A stride-2 slice of rows 0..10 of a [2, 20, 40] buffer against rows 10..20 of both
        // batches (fuser-lowerfuzz, seed 105775): disjoint; the slice of rows 9..11 is not.
        let rows = |r0: usize, n: usize| Lattice { offset: 40 * r0, shape: vec![2, n, 40], strides: vec![800, 40, 1] };
        let sliced =
            |r0: usize, n: usize| Lattice { offset: 40 * r0 + 11, shape: vec![2, n, 10], strides: vec![800, 40, 2] };
        assert!(sliced(0, 10).disjoint(&rows(10, 10)) && rows(10, 10).disjoint(&sliced(0, 10)));
        assert!(!sliced(9, 2).disjoint(&rows(10, 10)));
        let empty = Lattice { offset: 0, shape: vec![0, 2], strides: vec![2, 1] };
        assert!(empty.disjoint(&chunk(0)));
        // Columns [0, 2) and [2, 4) of a 5x6 row-major matrix: hulls overlap, elements do not.
        let col = |c: usize, w: usize| Lattice { offset: c, shape: vec![5, w], strides: vec![6, 1] };
        let hull = |l: &Lattice| (l.offset, l.offset + 4 * 6 + l.shape[1]);
        let mut rc = RaceChecker::new();
        let (a, b, c) = (col(0, 2), col(2, 2), col(1, 2));
        rc.on_access_strided((0, 1), access(1, hull(&a), true, key("a", "x:1:1")), Some(a.clone()));
        assert!(rc.on_access_strided((0, 2), access(1, hull(&b), true, key("b", "x:2:1")), Some(b)).is_none());
        assert!(rc.on_access_strided((0, 3), access(1, hull(&c), true, key("c", "x:3:1")), Some(c)).is_some());
        // Rows of different residues, and lattices whose strides are not nested (no proof).
        let odd = Lattice { offset: 1, shape: vec![4], strides: vec![2] };
        let even = Lattice { offset: 0, shape: vec![4], strides: vec![2] };
        assert!(odd.disjoint(&even));
        let weird = Lattice { offset: 0, shape: vec![2, 2], strides: vec![3, 2] };
        assert!(!weird.disjoint(&weird.clone()));
    }

    /// A receive into buffer 1 posted on stream (0, 1) that does not hold its stream.
    fn transfer(rc: &mut RaceChecker, stream: StreamKey, buffer: u64) -> VClock {
        let k = key("comm.recv", "x:1:1");
        let (done, race) = rc.on_transfer(stream, &k, vec![(access(buffer, (0, 8), true, k.clone()), None)]);
        assert!(race.is_none());
        done
    }

    #[test]
    fn a_transfer_writes_until_its_wait_even_for_its_own_stream() {
        let mut rc = RaceChecker::new();
        rc.on_access((0, 1), access(1, (0, 8), true, key("fill", "x:0:1")));
        let done = transfer(&mut rc, (0, 1), 1);
        let race = rc.on_access((0, 1), access(1, (0, 8), false, key("host.copy", "x:2:1"))).expect("race");
        assert_eq!(
            race.to_string(),
            "race on buffer #1 elements [0, 8): comm.recv at x:1:1 on rank 0 stream 1 writes until its comm.wait, \
             host.copy at x:2:1 on rank 0 stream 1 reads without ordering"
        );
        // After the wait (on any stream), the data is there.
        rc.on_wait((0, 2), &done);
        assert!(rc.on_access((0, 2), access(1, (0, 8), false, key("host.copy", "x:3:1"))).is_none());
        assert!(rc.unwaited(0).is_empty());
    }

    #[test]
    fn a_transfer_is_ordered_after_what_its_stream_did_before_the_post() {
        let mut rc = RaceChecker::new();
        rc.on_access((0, 1), access(1, (0, 8), false, key("read", "x:0:1")));
        rc.on_access((0, 2), access(1, (0, 8), false, key("other", "x:0:2")));
        let k = key("comm.recv", "x:1:1");
        let (_, race) = rc.on_transfer((0, 1), &k, vec![(access(1, (0, 8), true, k.clone()), None)]);
        // Stream 1's read came before the post; stream 2's read is not ordered with it.
        let race = race.expect("race with stream 2");
        assert_eq!(race.first.stream, (0, 2));
        assert!(race.second.in_flight && race.second.stream == (0, 1));
    }

    #[test]
    fn two_transfers_in_flight_into_one_buffer_race() {
        let mut rc = RaceChecker::new();
        transfer(&mut rc, (0, 1), 1);
        let k = key("comm.recv", "x:5:1");
        let (_, race) = rc.on_transfer((0, 1), &k, vec![(access(1, (4, 12), true, k.clone()), None)]);
        assert_eq!(race.expect("write-write").range, (4, 8));
        assert_eq!(rc.lanes.len(), 2);
    }

    #[test]
    fn waited_transfers_reuse_their_lane_and_keep_histories_bounded() {
        let mut rc = RaceChecker::new();
        for _ in 0..1000 {
            let done = transfer(&mut rc, (0, 1), 1);
            rc.on_wait((0, 1), &done);
            rc.on_access((0, 1), access(1, (0, 8), false, key("host.copy", "x:2:1")));
        }
        assert_eq!(rc.lanes.len(), 1);
        assert!(rc.history[&1].len() <= 2, "{:?}", rc.history[&1]);
        assert!(rc.clocks.iter().all(|c| c.0.len() <= 2));
    }

    #[test]
    fn a_transfer_nobody_waits_for_is_listed_and_synchronize_is_no_wait() {
        let mut rc = RaceChecker::new();
        let done = transfer(&mut rc, (1, 2), 1);
        rc.on_sync((1, 2));
        rc.on_sync((1, 0));
        let unwaited = rc.unwaited(1);
        assert_eq!(unwaited.len(), 1);
        assert_eq!(
            unwaited[0].to_string(),
            "comm.recv at x:1:1 on rank 1 stream 2 is never waited for: it does not hold its stream, so \
             its buffers stay in use until a comm.wait on its request, and none comes"
        );
        assert!(rc.unwaited(0).is_empty());
        // A wait on another rank's stream does not count either.
        rc.on_wait((0, 0), &done);
        assert_eq!(rc.unwaited(1).len(), 1);
        rc.on_wait((1, 0), &done);
        assert!(rc.unwaited(1).is_empty());
    }

    #[test]
    fn a_disabled_checker_records_nothing() {
        let mut rc = RaceChecker::disabled();
        rc.on_access((0, 1), access(7, (0, 32), true, key("a", "x:1:1")));
        assert!(rc.on_access((0, 2), access(7, (0, 32), true, key("b", "x:1:1"))).is_none());
        assert!(rc.history.is_empty() && rc.clocks.is_empty());
    }
}
