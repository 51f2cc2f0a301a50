//! Division and remainder on [`ApInt`] with LLVM `APInt` semantics: unsigned division is
//! Knuth's algorithm D on 64-bit words (one short division when the divisor has one word);
//! signed division rounds towards zero and the remainder takes the dividend's sign.
//!
//! A zero divisor gives `None` (the folders leave such ops alone); `INT_MIN / -1` wraps to
//! `INT_MIN` as in `APInt::sdiv` (callers that must not fold it check first).

use super::ApInt;

/// Quotient and remainder of `u / v` on little-endian words; `v` must have a non-zero word.
fn divmod_words(u: &[u64], v: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let trim = |w: &[u64]| w.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
    let (m_n, n) = (trim(u), trim(v));
    let (u, v) = (&u[..m_n], &v[..n]);
    if m_n < n {
        return (vec![0], u.to_vec());
    }
    if n == 1 {
        let d = v[0] as u128;
        let mut q = vec![0u64; m_n];
        let mut rem = 0u128;
        for i in (0..m_n).rev() {
            let cur = (rem << 64) | u[i] as u128;
            q[i] = (cur / d) as u64;
            rem = cur % d;
        }
        return (q, vec![rem as u64]);
    }
    // Normalize so the divisor's top word has its high bit set.
    let s = v[n - 1].leading_zeros();
    let shl = |w: &[u64], extra: usize| -> Vec<u64> {
        let mut out = vec![0u64; w.len() + extra];
        for i in 0..w.len() {
            out[i] |= w[i] << s;
            if s != 0 && i + 1 < out.len() {
                out[i + 1] |= w[i] >> (64 - s);
            }
        }
        out
    };
    let vn = shl(v, 0);
    let mut un = shl(u, 1);
    let m = m_n - n;
    let mut q = vec![0u64; m + 1];
    const B: u128 = 1 << 64;
    for j in (0..=m).rev() {
        let num = (un[j + n] as u128) << 64 | un[j + n - 1] as u128;
        let mut qhat = num / vn[n - 1] as u128;
        let mut rhat = num % vn[n - 1] as u128;
        while qhat >= B || qhat * vn[n - 2] as u128 > (rhat << 64 | un[j + n - 2] as u128) {
            qhat -= 1;
            rhat += vn[n - 1] as u128;
            if rhat >= B {
                break;
            }
        }
        // un[j..=j+n] -= qhat * vn
        let (mut carry, mut borrow) = (0u64, 0u64);
        for i in 0..n {
            let p = qhat * vn[i] as u128 + carry as u128;
            carry = (p >> 64) as u64;
            let (d1, b1) = un[i + j].overflowing_sub(p as u64);
            let (d2, b2) = d1.overflowing_sub(borrow);
            un[i + j] = d2;
            borrow = b1 as u64 + b2 as u64;
        }
        let (d1, b1) = un[j + n].overflowing_sub(carry);
        let (d2, b2) = d1.overflowing_sub(borrow);
        un[j + n] = d2;
        q[j] = qhat as u64;
        if b1 || b2 {
            // qhat was one too large: add the divisor back.
            q[j] = q[j].wrapping_sub(1);
            let mut c = 0u128;
            for i in 0..n {
                let t = un[i + j] as u128 + vn[i] as u128 + c;
                un[i + j] = t as u64;
                c = t >> 64;
            }
            un[j + n] = un[j + n].wrapping_add(c as u64);
        }
    }
    // Unnormalize the remainder.
    let r = (0..n).map(|i| if s == 0 { un[i] } else { (un[i] >> s) | (un[i + 1] << (64 - s)) }).collect();
    (q, r)
}

impl ApInt {
    /// Unsigned quotient and remainder; `None` for a zero divisor.
    pub fn udivrem(&self, o: &ApInt) -> Option<(ApInt, ApInt)> {
        if o.is_zero() {
            return None;
        }
        if self.words.len() == 1 {
            let (a, b) = (self.words[0], o.words[0]);
            return Some((ApInt::from_words(self.width, vec![a / b]), ApInt::from_words(self.width, vec![a % b])));
        }
        let (q, r) = divmod_words(&self.words, &o.words);
        Some((ApInt::from_words(self.width, q), ApInt::from_words(self.width, r)))
    }

    pub fn udiv(&self, o: &ApInt) -> Option<ApInt> {
        self.udivrem(o).map(|(q, _)| q)
    }

    pub fn urem(&self, o: &ApInt) -> Option<ApInt> {
        self.udivrem(o).map(|(_, r)| r)
    }

    /// Signed quotient (towards zero) and remainder (sign of the dividend); `None` for a zero
    /// divisor. `INT_MIN / -1` wraps to `INT_MIN` with remainder 0.
    pub fn sdivrem(&self, o: &ApInt) -> Option<(ApInt, ApInt)> {
        let (ln, rn) = (self.is_negative(), o.is_negative());
        let abs = |x: &ApInt, neg: bool| if neg { x.negate() } else { x.clone() };
        let (q, r) = abs(self, ln).udivrem(&abs(o, rn))?;
        Some((abs(&q, ln != rn), abs(&r, ln)))
    }

    pub fn sdiv(&self, o: &ApInt) -> Option<ApInt> {
        self.sdivrem(o).map(|(q, _)| q)
    }

    pub fn srem(&self, o: &ApInt) -> Option<ApInt> {
        self.sdivrem(o).map(|(_, r)| r)
    }

    /// Signed division that also reports overflow (`INT_MIN / -1`), as `APInt::sdiv_ov`.
    pub fn sdiv_overflow(&self, o: &ApInt) -> Option<(ApInt, bool)> {
        let overflow = self.is_signed_min() && o.is_all_ones();
        Some((self.sdiv(o)?, overflow))
    }
}
