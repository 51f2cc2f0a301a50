//! Runtime errors: what went wrong, on which rank, at which op. Library code returns these;
//! `fuser-run` decides how to print them and which exit code to use.

use std::fmt;

/// Names an op of a prepared program: its index and source location (`file:line:col`), for
/// error messages, traces, race and watchdog reports.
///
/// Cloning is cheap (shared strings): every task posted to a stream carries its op's key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OpKey {
    pub index: u32,
    pub loc: Option<std::sync::Arc<str>>,
    /// The op name (`host.matmul`), for reports.
    pub name: std::sync::Arc<str>,
}

impl fmt::Display for OpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            Some(loc) => write!(f, "'{}' at {loc}", self.name),
            None => write!(f, "'{}' (op #{})", self.name, self.index),
        }
    }
}

/// A runtime failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtError {
    pub message: String,
    pub rank: Option<usize>,
    pub op: Option<OpKey>,
}

impl RtError {
    pub fn new(message: impl Into<String>) -> RtError {
        RtError { message: message.into(), rank: None, op: None }
    }
    pub fn on_rank(mut self, rank: usize) -> RtError {
        self.rank.get_or_insert(rank);
        self
    }
    pub fn at(mut self, op: &OpKey) -> RtError {
        if self.op.is_none() {
            self.op = Some(op.clone());
        }
        self
    }
}

impl fmt::Display for RtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(op) = &self.op {
            write!(f, "{op}: ")?;
        }
        if let Some(r) = self.rank {
            write!(f, "rank {r}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for RtError {}

pub type RtResult<T> = Result<T, RtError>;

/// The ranks a run of `n` ranks runs, for messages: `rank 0` or `ranks 0..=N-1`.
pub fn rank_range(n: usize) -> String {
    match n {
        1 => "rank 0".to_string(),
        n => format!("ranks 0..={}", n.saturating_sub(1)),
    }
}
