//! A tiny deterministic PRNG (xorshift64*) shared by the crate's randomized unit tests (integer
//! and float arithmetic cross-checks, parser fuzz seeds). Test-only; the same seed always gives
//! the same sequence, so a failure reproduces. Test modules add the generators they need in
//! their own `impl Rng` blocks.

/// xorshift64*: a deterministic source of bit patterns; the seed must not be zero.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
