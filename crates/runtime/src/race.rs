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
/// pseudo-stream (e.g. index `usize::MAX`) for host-side accesses.
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
}

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

    /// Whether the two lattices provably share no element.
    pub fn disjoint(&self, other: &Lattice) -> bool {
        if self.strides != other.strides {
            return false;
        }
        match (self.boxes(), other.boxes()) {
            (Some((a, ra)), Some((b, rb))) => ra != rb || a.iter().zip(&b).any(|(x, y)| x.1 <= y.0 || y.1 <= x.0),
            _ => false,
        }
    }
}

/// Two unordered conflicting accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub buffer: u64,
    /// The overlap of the two ranges.
    pub range: (usize, usize),
    pub first: (StreamKey, OpKey, bool),
    pub second: (StreamKey, OpKey, bool),
}

fn describe_access(f: &mut fmt::Formatter<'_>, (stream, key, write): &(StreamKey, OpKey, bool)) -> fmt::Result {
    match &key.loc {
        Some(loc) => write!(f, "{} at {loc}", key.name)?,
        None => write!(f, "{} (op #{})", key.name, key.index)?,
    }
    write!(f, " on rank {} stream {} {}", stream.0, stream.1, if *write { "writes" } else { "reads" })
}

impl fmt::Display for Race {
    /// `race on buffer #7 elements [16, 32): host.matmul at f.mlir:9:7 on rank 0 stream 1
    /// writes, host.copy at f.mlir:14:5 on rank 0 stream 2 reads without ordering`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "race on buffer #{} elements [{}, {}): ", self.buffer, self.range.0, self.range.1)?;
        describe_access(f, &self.first)?;
        f.write_str(", ")?;
        describe_access(f, &self.second)?;
        f.write_str(" without ordering")
    }
}

impl Race {
    pub fn to_error(&self) -> RtError {
        RtError::new(self.to_string()).on_rank(self.second.0.0).at(&self.second.1)
    }
}

/// The checker: clocks of streams, access histories of buffers, races found.
#[derive(Default)]
pub struct RaceChecker {
    enabled: bool,
    numbering: FxHashMap<StreamKey, usize>,
    keys: Vec<StreamKey>,
    clocks: Vec<VClock>,
    history: FxHashMap<u64, Vec<Stamped>>,
    races: Vec<Race>,
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
        let clock = &self.clocks[s];
        let history = self.history.entry(access.buffer).or_default();
        let mut found = None;
        for earlier in history.iter() {
            if earlier.stream == s || !(earlier.write || access.write) {
                continue;
            }
            let overlap = (earlier.range.0.max(access.range.0), earlier.range.1.min(access.range.1));
            if overlap.0 >= overlap.1 || earlier.epoch <= clock.get(earlier.stream) {
                continue;
            }
            if let (Some(a), Some(b)) = (&earlier.lattice, &lattice)
                && a.disjoint(b)
            {
                continue;
            }
            let race = Race {
                buffer: access.buffer,
                range: overlap,
                first: (self.keys[earlier.stream], earlier.key.clone(), earlier.write),
                second: (stream, access.key.clone(), access.write),
            };
            found.get_or_insert_with(|| race.clone());
            self.races.push(race);
        }
        let stamped = Stamped {
            stream: s,
            epoch: clock.get(s),
            range: access.range,
            write: access.write,
            key: access.key,
            lattice,
        };
        history.retain(|e| !supersedes(&stamped, e));
        history.push(stamped);
        found
    }

    /// An event recorded on `stream`: the snapshot to join later; advances the stream's epoch.
    pub fn on_record(&mut self, stream: StreamKey) -> VClock {
        if !self.enabled {
            return VClock::default();
        }
        let s = self.number(stream);
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
        for (n, key) in self.keys.iter().enumerate() {
            if key.0 == rank {
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

/// Whether `new` makes `old` redundant: same stream, `old`'s range inside `new`'s, and `new` a
/// write or `old` a read (anything conflicting with `old` later conflicts with `new`, which is
/// ordered no earlier).
fn supersedes(new: &Stamped, old: &Stamped) -> bool {
    // A strided access covers only part of its hull: it supersedes only its equal.
    let covers = new.lattice.is_none() || new.lattice == old.lattice;
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

    #[test]
    fn a_disabled_checker_records_nothing() {
        let mut rc = RaceChecker::disabled();
        rc.on_access((0, 1), access(7, (0, 32), true, key("a", "x:1:1")));
        assert!(rc.on_access((0, 2), access(7, (0, 32), true, key("b", "x:1:1"))).is_none());
        assert!(rc.history.is_empty() && rc.clocks.is_empty());
    }
}
