//! A process-wide count of IR traversal steps, so that tests can check how the work of a pass
//! grows with its input without timing it (cargo feature `step-count`; without the feature
//! nothing is counted and [`traversal_steps`] stays 0).
//!
//! One step is one op yielded by a block iteration ([`Ir::block_ops`]) or reached through
//! `next_op` / `prev_op` (walks use these), one use yielded by a use-list iteration
//! ([`Ir::uses`]), or one climb to a parent op. A pass that visits each op a bounded number of
//! times makes a number of steps linear in the size of the IR; a scan of a block, a use list or
//! the whole function per op makes it grow quadratically. The count is shared by all threads:
//! a test reading it must be the only one running in its process.

#[cfg(feature = "step-count")]
static STEPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts one traversal step (nothing without the `step-count` feature).
#[inline(always)]
pub(crate) fn step() {
    #[cfg(feature = "step-count")]
    STEPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The traversal steps counted so far in this process (0 without the `step-count` feature).
pub fn traversal_steps() -> u64 {
    #[cfg(feature = "step-count")]
    return STEPS.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "step-count"))]
    0
}
