//! Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw ("Parallel
//! random numbers: as easy as 1, 2, 3", SC'11; the Random123 library, torch's CUDA generator),
//! and the uniform draw `fusion.dropout` takes from it.
//!
//! The cuda backend's kernels (`cuda/ops/lookup.rs`, and the fused kernels of
//! `cuda/fused/codegen.rs`) implement the same function in CUDA C, word for word: a draw is a
//! pure function of `(seed, offset, global index)`, so the reference, the cpu backend and the
//! cuda backend give bit-identical masks whatever the sharding.
//!
//! **The draw of the element with global row-major index `g`.** One Philox call gives four
//! 32-bit words, and they serve four consecutive elements: the aligned group `floor(g / 4)`
//! takes the counter `c = offset + floor(g / 4)` (wrapping in 64 bits), the call is
//! key `(lo32(seed), hi32(seed))`, counter `(lo32(c), hi32(c), 0, 0)`, and element `g` takes
//! word `g mod 4` of the output, divided by `2^32` (a value in `[0, 1)`, exact in `f64`).
//! A tensor of `n` elements therefore uses the counters `offset .. offset + ceil(n / 4)`:
//! advancing `offset` by `ceil(n / 4)` (or more) between two draws gives fresh, independent
//! masks.

/// The Philox multipliers and Weyl key increments (Random123's `PHILOX_M4x32_*`, `PHILOX_W32_*`).
const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// The high and low 32 bits of `a * b`.
fn mulhilo(a: u32, b: u32) -> (u32, u32) {
    let p = u64::from(a) * u64::from(b);
    ((p >> 32) as u32, p as u32)
}

/// One round: two multiplications, a permutation and the key mixed in.
fn round(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let (hi0, lo0) = mulhilo(M0, ctr[0]);
    let (hi1, lo1) = mulhilo(M1, ctr[2]);
    [hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0]
}

/// Philox4x32 with 10 rounds (the key bumped between rounds).
pub fn philox4x32_10(mut ctr: [u32; 4], mut key: [u32; 2]) -> [u32; 4] {
    for r in 0..10 {
        if r > 0 {
            key = [key[0].wrapping_add(W0), key[1].wrapping_add(W1)];
        }
        ctr = round(ctr, key);
    }
    ctr
}

/// The four 32-bit words of one call: key from `seed`, counter `(lo32(c), hi32(c), 0, 0)`.
pub fn words(seed: i64, counter: u64) -> [u32; 4] {
    let s = seed as u64;
    philox4x32_10([counter as u32, (counter >> 32) as u32, 0, 0], [s as u32, (s >> 32) as u32])
}

/// The 32-bit draw of the element with global index `index`: word `index mod 4` of the call at
/// counter `offset + floor(index / 4)` (wrapping).
pub fn draw(seed: i64, offset: i64, index: u64) -> u32 {
    words(seed, (offset as u64).wrapping_add(index / 4))[(index % 4) as usize]
}

/// The uniform value in `[0, 1)` of the element with global index `index`.
pub fn uniform(seed: i64, offset: i64, index: u64) -> f64 {
    f64::from(draw(seed, offset, index)) / 4_294_967_296.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random123's published known answers for philox4x32_10 (its `kat_vectors`: counter
    /// words, key words, output words).
    #[test]
    fn random123_known_answers() {
        assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]);
        assert_eq!(philox4x32_10([u32::MAX; 4], [u32::MAX; 2]), [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]);
        assert_eq!(
            philox4x32_10([0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344], [0xa409_3822, 0x299f_31d0]),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
    }

    #[test]
    fn draws_use_all_four_words_of_a_group() {
        // Seed 0, offset 0: elements 0..4 are the four words of the zero-counter known answer.
        let kat = [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8];
        for (g, &w) in kat.iter().enumerate() {
            assert_eq!(draw(0, 0, g as u64), w);
        }
        // Elements 4..8 are the next counter's call; offset 1 shifts the groups by one call.
        assert_eq!(draw(0, 0, 5), philox4x32_10([1, 0, 0, 0], [0, 0])[1]);
        assert_eq!(draw(0, 1, 1), draw(0, 0, 5));
        // Seed and counter are split into low and high words.
        let seed = 0x299f_31d0_a409_3822u64 as i64;
        let counter = 0x85a3_08d3_243f_6a88u64;
        let full = philox4x32_10([0x243f_6a88, 0x85a3_08d3, 0, 0], [0xa409_3822, 0x299f_31d0]);
        for k in 0..4u64 {
            assert_eq!(draw(seed, (counter - 5) as i64, 20 + k), full[k as usize]);
            assert_eq!(draw(seed, counter as i64, k), full[k as usize]);
        }
        // The counter wraps in 64 bits: offset -1 and group 1 is counter 0.
        assert_eq!(draw(5, -1, 6), draw(5, 0, 2));
        assert_eq!(uniform(0, 0, 3), f64::from(0x9b00_dbd8u32) / 4_294_967_296.0);
        // The draws are roughly uniform: the mean of 4096 consecutive elements is near 1/2.
        let mean = (0..4096u64).map(|g| uniform(7, 0, g)).sum::<f64>() / 4096.0;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
    }
}
