//! A software binary float in the manner of LLVM's `APFloat`, for the constant folders: every
//! [`FloatKind`] mlir-opt-19 folds (`f16`, `bf16`, `f32`, `f64`, `f80`, `f128`, `tf32` and the
//! 8-bit formats), with arithmetic in the type's own precision, the IEEE rounding modes, and
//! NaN, infinity and signed zero treated as `APFloat` treats them:
//! - the NaN an operation returns is its first NaN operand (quieted), an invalid operation
//!   makes the default NaN (positive quiet for IEEE formats; `S.1111.111` with the given sign
//!   for the `...FN` formats, whose all-ones pattern is the only NaN; `0x80` for the `...FNUZ`
//!   formats, whose NaN is the negative-zero pattern);
//! - overflow gives an infinity, or the NaN of the formats without infinities;
//! - the `...FNUZ` formats have no negative zero: a zero result is positive and negation leaves
//!   zero and NaN alone.
//!
//! Invariants of [`ApFloat`]: a normal value is `sig * 2^(exp - (precision - 1))` with
//! `0 < sig < 2^precision`, and `sig < 2^(precision - 1)` only when `exp` is the minimum
//! exponent (a subnormal); a NaN keeps its significand field (`f80`: with the integer bit) in
//! `sig`; a zero of a `...FNUZ` format is positive. `f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN` and
//! `f8E8M0FNU` (which mlir-opt-19 does not parse) have no semantics here: `from_bits` is `None`.
//!
//! Layer: storage primitives; imports [`ApInt`] and [`FloatKind`] only.

use crate::apint::ApInt;
use crate::types::FloatKind;
use std::cmp::Ordering;

/// How a format encodes the values beyond the finite ones.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum NonFinite {
    /// Infinities and NaNs with the all-ones exponent.
    Ieee,
    /// No infinities; the all-ones pattern (either sign) is the only NaN (`...FN`).
    NanAllOnes,
    /// No infinities and no negative zero; the negative-zero pattern is the only NaN (`...FNUZ`).
    NanNegZero,
}

/// The parameters of a format, as `APFloat`'s `fltSemantics`.
#[derive(Clone, Copy, Debug)]
struct Semantics {
    precision: u32,
    max_exp: i32,
    min_exp: i32,
    width: u32,
    non_finite: NonFinite,
    /// `f80` stores its integer bit.
    explicit_int: bool,
}

impl Semantics {
    fn of(kind: FloatKind) -> Option<Semantics> {
        use FloatKind::*;
        use NonFinite::*;
        let (precision, max_exp, min_exp, width, non_finite) = match kind {
            F16 => (11, 15, -14, 16, Ieee),
            BF16 => (8, 127, -126, 16, Ieee),
            F32 => (24, 127, -126, 32, Ieee),
            F64 => (53, 1023, -1022, 64, Ieee),
            F80 => (64, 16383, -16382, 80, Ieee),
            F128 => (113, 16383, -16382, 128, Ieee),
            TF32 => (11, 127, -126, 19, Ieee),
            F8E5M2 => (3, 15, -14, 8, Ieee),
            F8E4M3 => (4, 7, -6, 8, Ieee),
            F8E3M4 => (5, 3, -2, 8, Ieee),
            F8E4M3FN => (4, 8, -6, 8, NanAllOnes),
            F8E5M2FNUZ => (3, 15, -15, 8, NanNegZero),
            F8E4M3FNUZ => (4, 7, -7, 8, NanNegZero),
            F8E4M3B11FNUZ => (4, 4, -10, 8, NanNegZero),
            F6E2M3FN | F6E3M2FN | F4E2M1FN | F8E8M0FNU => return None,
        };
        Some(Semantics { precision, max_exp, min_exp, width, non_finite, explicit_int: kind == F80 })
    }
    /// Stored fraction bits (the integer bit of `f80` not counted).
    fn frac_bits(self) -> u32 {
        self.precision - 1
    }
    /// Bits of the significand field (`f80`: the integer bit included).
    fn field_bits(self) -> u32 {
        self.frac_bits() + self.explicit_int as u32
    }
    fn exp_bits(self) -> u32 {
        self.width - 1 - self.field_bits()
    }
    fn bias(self) -> i32 {
        1 - self.min_exp
    }
    fn all_ones_sig(self) -> u128 {
        mask(self.precision)
    }
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 }
}

fn bit_len(v: u128) -> u32 {
    128 - v.leading_zeros()
}

/// The class of a value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Category {
    Zero,
    Normal,
    Infinity,
    NaN,
}

/// IEEE rounding-direction attributes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RoundingMode {
    NearestTiesToEven,
    TowardPositive,
    TowardNegative,
    TowardZero,
    NearestTiesToAway,
}

/// The exceptions an operation raised (`APFloat::opStatus`), as a bit set.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Status(pub u8);

impl Status {
    pub const OK: Status = Status(0);
    pub const INVALID: Status = Status(1);
    pub const DIV_BY_ZERO: Status = Status(2);
    pub const OVERFLOW: Status = Status(4);
    pub const UNDERFLOW: Status = Status(8);
    pub const INEXACT: Status = Status(16);
    pub fn contains(self, s: Status) -> bool {
        self.0 & s.0 == s.0 && s.0 != 0
    }
    fn or(self, s: Status) -> Status {
        Status(self.0 | s.0)
    }
}

/// A value of a binary float format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ApFloat {
    kind: FloatKind,
    sem: Semantics,
    cat: Category,
    sign: bool,
    exp: i32,
    sig: u128,
}

impl PartialEq for Semantics {
    fn eq(&self, o: &Semantics) -> bool {
        self.precision == o.precision && self.width == o.width && self.min_exp == o.min_exp
    }
}
impl Eq for Semantics {}

/// How much of a unit was dropped by a shift or division.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lost {
    Zero,
    LessThanHalf,
    Half,
    MoreThanHalf,
}

impl ApFloat {
    fn special(kind: FloatKind, sem: Semantics, cat: Category, sign: bool) -> ApFloat {
        let mut r = ApFloat { kind, sem, cat, sign, exp: 0, sig: 0 };
        r.canonical_zero_sign();
        r
    }

    /// The format's (positive, for `...FNUZ` the only) zero; `None` for formats without semantics.
    pub fn zero(kind: FloatKind, negative: bool) -> Option<ApFloat> {
        Some(Self::special(kind, Semantics::of(kind)?, Category::Zero, negative))
    }

    /// The default NaN `APFloat::makeNaN(false, negative)` makes.
    pub fn nan(kind: FloatKind, negative: bool) -> Option<ApFloat> {
        let sem = Semantics::of(kind)?;
        Some(Self::make_nan(kind, sem, negative))
    }

    fn make_nan(kind: FloatKind, sem: Semantics, negative: bool) -> ApFloat {
        let (sign, sig) = match sem.non_finite {
            NonFinite::NanNegZero => (true, 0),
            NonFinite::NanAllOnes => (negative, mask(sem.precision - 1)),
            NonFinite::Ieee => {
                let int_bit = if sem.explicit_int { 1u128 << (sem.precision - 1) } else { 0 };
                (negative, 1u128 << (sem.precision - 2) | int_bit)
            }
        };
        ApFloat { kind, sem, cat: Category::NaN, sign, exp: 0, sig }
    }

    /// Infinity, or the NaN of a format without infinities (as `APFloat::getInf` makes it).
    pub fn inf(kind: FloatKind, negative: bool) -> Option<ApFloat> {
        let sem = Semantics::of(kind)?;
        Some(match sem.non_finite {
            NonFinite::Ieee => Self::special(kind, sem, Category::Infinity, negative),
            _ => Self::make_nan(kind, sem, negative),
        })
    }

    fn canonical_zero_sign(&mut self) {
        if self.cat == Category::Zero && self.sem.non_finite == NonFinite::NanNegZero {
            self.sign = false;
        }
    }

    // ----- bits --------------------------------------------------------------------------------

    /// The value of a bit pattern of `kind` (bits above the width ignored).
    pub fn from_bits(kind: FloatKind, bits: u128) -> Option<ApFloat> {
        let sem = Semantics::of(kind)?;
        let bits = bits & mask(sem.width);
        let sign = (bits >> (sem.width - 1)) & 1 == 1;
        let field = bits & mask(sem.field_bits());
        let frac = bits & mask(sem.frac_bits());
        let e_field = (bits >> sem.field_bits()) & mask(sem.exp_bits());
        let e_max = mask(sem.exp_bits());
        let mk = |cat, exp, sig| ApFloat { kind, sem, cat, sign, exp, sig };
        match sem.non_finite {
            NonFinite::Ieee if e_field == e_max => {
                let inf = if sem.explicit_int { field == 1u128 << 63 } else { frac == 0 };
                return Some(if inf { mk(Category::Infinity, 0, 0) } else { mk(Category::NaN, 0, field) });
            }
            NonFinite::NanAllOnes if e_field == e_max && frac == mask(sem.frac_bits()) => {
                return Some(mk(Category::NaN, 0, frac));
            }
            NonFinite::NanNegZero if bits == 1u128 << (sem.width - 1) => return Some(mk(Category::NaN, 0, 0)),
            _ => {}
        }
        if sem.explicit_int {
            // f80: a cleared integer bit with a non-zero exponent is an unnormal, a NaN to APFloat.
            if e_field != 0 && (field >> 63) & 1 == 0 {
                return Some(mk(Category::NaN, 0, field));
            }
            if e_field == 0 {
                return Some(if field == 0 {
                    mk(Category::Zero, 0, 0)
                } else {
                    mk(Category::Normal, sem.min_exp, field)
                });
            }
            return Some(mk(Category::Normal, e_field as i32 - sem.bias(), field));
        }
        if e_field == 0 {
            return Some(if frac == 0 { mk(Category::Zero, 0, 0) } else { mk(Category::Normal, sem.min_exp, frac) });
        }
        Some(mk(Category::Normal, e_field as i32 - sem.bias(), frac | 1u128 << sem.frac_bits()))
    }

    /// The bit pattern of the value.
    pub fn to_bits(&self) -> u128 {
        let sem = self.sem;
        let sign = (self.sign as u128) << (sem.width - 1);
        let e_max = mask(sem.exp_bits());
        let fb = sem.field_bits();
        let field_mask = mask(fb);
        match self.cat {
            Category::Zero => sign,
            Category::Infinity => {
                let int_bit = if sem.explicit_int { 1u128 << 63 } else { 0 };
                sign | e_max << fb | int_bit
            }
            Category::NaN => match sem.non_finite {
                NonFinite::NanNegZero => 1u128 << (sem.width - 1),
                NonFinite::NanAllOnes => sign | e_max << fb | mask(sem.frac_bits()),
                NonFinite::Ieee => sign | e_max << fb | (self.sig & field_mask),
            },
            Category::Normal => {
                let denormal = self.sig < 1u128 << (sem.precision - 1);
                let e_field = if denormal { 0 } else { (self.exp + sem.bias()) as u128 };
                let field = if sem.explicit_int { self.sig } else { self.sig & mask(sem.frac_bits()) };
                sign | e_field << fb | (field & field_mask)
            }
        }
    }

    pub fn kind(&self) -> FloatKind {
        self.kind
    }
    pub fn category(&self) -> Category {
        self.cat
    }
    pub fn is_negative(&self) -> bool {
        self.sign
    }
    pub fn is_nan(&self) -> bool {
        self.cat == Category::NaN
    }
    pub fn is_zero(&self) -> bool {
        self.cat == Category::Zero
    }
    pub fn is_infinity(&self) -> bool {
        self.cat == Category::Infinity
    }
    pub fn is_finite(&self) -> bool {
        matches!(self.cat, Category::Zero | Category::Normal)
    }
    /// A NaN with its quiet bit clear (never in the formats without infinities).
    pub fn is_signaling(&self) -> bool {
        self.cat == Category::NaN
            && self.sem.non_finite == NonFinite::Ieee
            && (self.sig >> (self.sem.precision - 2)) & 1 == 0
    }
    /// True when the value is exactly `v` (a finite `f64`; NaN never is).
    pub fn is_exactly(&self, v: f64) -> bool {
        let Some(x) = ApFloat::from_bits(FloatKind::F64, v.to_bits() as u128) else { return false };
        let (c, _, lost) = x.convert(self.kind, RoundingMode::NearestTiesToEven);
        !lost
            && c.cat == self.cat
            && c.sign == self.sign
            && c.cat != Category::NaN
            && c.compare(self) == Some(Ordering::Equal)
    }

    /// `ilogb`: the binary exponent of a finite non-zero value (subnormals normalized);
    /// `i32::MAX` for infinity, `i32::MIN` for NaN and `i32::MIN + 1` for zero (`IEK_*`).
    pub fn ilogb(&self) -> i32 {
        match self.cat {
            Category::Infinity => i32::MAX,
            Category::NaN => i32::MIN,
            Category::Zero => i32::MIN + 1,
            Category::Normal => self.exp - (self.sem.precision - bit_len(self.sig)) as i32,
        }
    }

    /// The precision (significand bits, the integer bit included) of a format.
    pub fn precision(kind: FloatKind) -> Option<u32> {
        Semantics::of(kind).map(|s| s.precision)
    }

    /// The binary exponent of the largest finite value of a format.
    pub fn max_exponent(kind: FloatKind) -> Option<i32> {
        Semantics::of(kind).map(|s| s.max_exp)
    }

    /// `APFloat::makeQuiet`.
    fn quieted(mut self) -> ApFloat {
        if self.sem.non_finite == NonFinite::Ieee {
            self.sig |= 1u128 << (self.sem.precision - 2);
        }
        self
    }

    // ----- rounding -----------------------------------------------------------------------------

    /// The value `(-1)^sign * mag * 2^e` (plus a fraction of the unit below `mag`'s last bit
    /// described by `lost`) rounded to the format (`APFloat::normalize`).
    fn round(
        kind: FloatKind,
        sem: Semantics,
        sign: bool,
        mag: u128,
        e: i32,
        lost: Lost,
        rm: RoundingMode,
    ) -> (ApFloat, Status) {
        let p = sem.precision;
        let mut r = ApFloat { kind, sem, cat: Category::Normal, sign, exp: 0, sig: 0 };
        let len = bit_len(mag) as i32;
        let (sig, exp, lost) = if len == 0 {
            (0u128, sem.min_exp, lost)
        } else {
            let lead = e + len - 1;
            if lead > sem.max_exp {
                return r.overflow(rm);
            }
            let exp = lead.max(sem.min_exp);
            let shift = (exp - (p as i32 - 1)) - e;
            if shift <= 0 {
                debug_assert!(lost == Lost::Zero);
                (mag << (-shift) as u32, exp, lost)
            } else {
                let (kept, dropped) = shift_right(mag, shift as u32);
                (kept, exp, combine(dropped, lost))
            }
        };
        r.sig = sig;
        r.exp = exp;
        let all_ones_max = |r: &ApFloat| {
            sem.non_finite == NonFinite::NanAllOnes && r.exp == sem.max_exp && r.sig == sem.all_ones_sig()
        };
        if r.sig != 0 && all_ones_max(&r) {
            return r.overflow(rm);
        }
        if lost == Lost::Zero {
            if r.sig == 0 {
                r.cat = Category::Zero;
                r.exp = 0;
                r.canonical_zero_sign();
            }
            return (r, Status::OK);
        }
        if round_away(rm, lost, sign, r.sig & 1 == 1) {
            r.sig += 1;
            if r.sig == 1u128 << p {
                if r.exp == sem.max_exp {
                    return r.overflow(if sign { RoundingMode::TowardNegative } else { RoundingMode::TowardPositive });
                }
                r.sig >>= 1;
                r.exp += 1;
                return (r, Status::INEXACT);
            }
            if all_ones_max(&r) {
                return r.overflow(rm);
            }
        }
        if r.sig >= 1u128 << (p - 1) {
            return (r, Status::INEXACT);
        }
        if r.sig == 0 {
            r.cat = Category::Zero;
            r.exp = 0;
            r.canonical_zero_sign();
        }
        (r, Status::UNDERFLOW.or(Status::INEXACT))
    }

    /// `APFloat::handleOverflow`: infinity (or NaN) or the largest finite value by the mode.
    fn overflow(mut self, rm: RoundingMode) -> (ApFloat, Status) {
        use RoundingMode::*;
        let to_inf = matches!(rm, NearestTiesToEven | NearestTiesToAway)
            || (rm == TowardPositive && !self.sign)
            || (rm == TowardNegative && self.sign);
        if to_inf {
            let r = match self.sem.non_finite {
                NonFinite::Ieee => ApFloat { cat: Category::Infinity, exp: 0, sig: 0, ..self },
                _ => Self::make_nan(self.kind, self.sem, self.sign),
            };
            return (r, Status::OVERFLOW.or(Status::INEXACT));
        }
        self.cat = Category::Normal;
        self.exp = self.sem.max_exp;
        self.sig = self.sem.all_ones_sig();
        if self.sem.non_finite == NonFinite::NanAllOnes {
            self.sig &= !1;
        }
        (self, Status::INEXACT)
    }

    /// The significand and exponent of the unit of its last bit (finite non-zero values).
    fn parts(&self) -> (u128, i32) {
        (self.sig, self.exp - (self.sem.precision as i32 - 1))
    }

    /// The NaN result of a binary operation with a NaN operand: the first NaN, quieted.
    fn nan_operand(a: &ApFloat, b: &ApFloat) -> Option<(ApFloat, Status)> {
        let n = if a.is_nan() {
            a
        } else if b.is_nan() {
            b
        } else {
            return None;
        };
        let status = if a.is_signaling() || b.is_signaling() { Status::INVALID } else { Status::OK };
        Some((n.quieted(), status))
    }

    fn invalid(&self) -> (ApFloat, Status) {
        (Self::make_nan(self.kind, self.sem, false), Status::INVALID)
    }

    // ----- arithmetic ---------------------------------------------------------------------------

    pub fn add(&self, b: &ApFloat, rm: RoundingMode) -> (ApFloat, Status) {
        self.add_sub(b, false, rm)
    }

    pub fn sub(&self, b: &ApFloat, rm: RoundingMode) -> (ApFloat, Status) {
        self.add_sub(b, true, rm)
    }

    fn add_sub(&self, b: &ApFloat, subtract: bool, rm: RoundingMode) -> (ApFloat, Status) {
        assert_eq!(self.kind, b.kind, "operands of one format");
        if let Some(r) = Self::nan_operand(self, b) {
            return r;
        }
        use Category::*;
        let b_sign = b.sign ^ subtract;
        let (r, st) = match (self.cat, b.cat) {
            (Infinity, Infinity) => {
                if self.sign != b_sign {
                    return self.invalid();
                }
                (*self, Status::OK)
            }
            (Infinity, _) | (Normal, Zero) => (*self, Status::OK),
            (_, Infinity) | (Zero, Normal) => (ApFloat { sign: b_sign, ..*b }, Status::OK),
            (Zero, Zero) => (*self, Status::OK),
            (Normal, Normal) => self.add_normals(b, b_sign, rm),
            _ => unreachable!("NaN handled above"),
        };
        let mut r = r;
        if r.cat == Zero {
            if b.cat != Zero || self.sign != b_sign {
                r.sign = rm == RoundingMode::TowardNegative;
            }
            r.canonical_zero_sign();
        }
        (r, st)
    }

    fn add_normals(&self, b: &ApFloat, b_sign: bool, rm: RoundingMode) -> (ApFloat, Status) {
        let ((ma, ea), (mb, eb)) = (self.parts(), b.parts());
        // `hi` has the larger exponent; three guard bits, the bits shifted out jammed into the last.
        let ((mh, eh, sh), (ml, el, sl)) =
            if ea >= eb { ((ma, ea, self.sign), (mb, eb, b_sign)) } else { ((mb, eb, b_sign), (ma, ea, self.sign)) };
        let d = (eh - el) as u32;
        let xh = mh << 3;
        let xl = {
            let y = ml << 3;
            if d >= 128 { (y != 0) as u128 } else { (y >> d) | ((y & mask(d)) != 0) as u128 }
        };
        let (mag, sign) = if sh == sl {
            (xh + xl, sh)
        } else if xh >= xl {
            (xh - xl, sh)
        } else {
            (xl - xh, sl)
        };
        if mag == 0 {
            return (ApFloat { cat: Category::Zero, exp: 0, sig: 0, sign, ..*self }, Status::OK);
        }
        Self::round(self.kind, self.sem, sign, mag, eh - 3, Lost::Zero, rm)
    }

    pub fn mul(&self, b: &ApFloat, rm: RoundingMode) -> (ApFloat, Status) {
        assert_eq!(self.kind, b.kind, "operands of one format");
        if let Some(r) = Self::nan_operand(self, b) {
            return r;
        }
        use Category::*;
        let sign = self.sign ^ b.sign;
        let mut r = match (self.cat, b.cat) {
            (Zero, Infinity) | (Infinity, Zero) => return self.invalid(),
            (Infinity, _) | (_, Infinity) => Self::special(self.kind, self.sem, Infinity, sign),
            (Zero, _) | (_, Zero) => Self::special(self.kind, self.sem, Zero, sign),
            _ => {
                let ((ma, ea), (mb, eb)) = (self.parts(), b.parts());
                let (hi, lo) = mul_wide(ma, mb);
                let (mag, shift, lost) = narrow_wide(hi, lo);
                return Self::round(self.kind, self.sem, sign, mag, ea + eb + shift, lost, rm);
            }
        };
        r.canonical_zero_sign();
        (r, Status::OK)
    }

    pub fn div(&self, b: &ApFloat, rm: RoundingMode) -> (ApFloat, Status) {
        assert_eq!(self.kind, b.kind, "operands of one format");
        if let Some(r) = Self::nan_operand(self, b) {
            return r;
        }
        use Category::*;
        let sign = self.sign ^ b.sign;
        match (self.cat, b.cat) {
            (Infinity, Infinity) | (Zero, Zero) => self.invalid(),
            (Infinity, _) => (Self::special(self.kind, self.sem, Infinity, sign), Status::OK),
            (Zero, _) | (_, Infinity) => (Self::special(self.kind, self.sem, Zero, sign), Status::OK),
            (Normal, Zero) => {
                let r = match self.sem.non_finite {
                    NonFinite::Ieee => Self::special(self.kind, self.sem, Infinity, sign),
                    _ => Self::make_nan(self.kind, self.sem, sign),
                };
                (r, Status::DIV_BY_ZERO)
            }
            _ => {
                let ((ma, ea), (mb, eb)) = (self.parts(), b.parts());
                // Both significands with their top bit at bit 113, so 1/2 < ma/mb < 2.
                let (sa, sb) = (bit_len(ma) as i32, bit_len(mb) as i32);
                let (na, nb) = (ma << (114 - sa), mb << (114 - sb));
                let (ea, eb) = (ea - (114 - sa), eb - (114 - sb));
                let n = self.sem.precision + 3;
                let (mut q, mut r) = (0u128, na);
                for _ in 0..n {
                    q <<= 1;
                    if r >= nb {
                        r -= nb;
                        q |= 1;
                    }
                    r <<= 1;
                }
                // q / 2^(n-1) approximates na / nb; a non-zero remainder is jammed into the last
                // bit (q has at least precision + 2 bits, so it lies below the rounding bit).
                let mag = q | (r != 0) as u128;
                let exact = r == 0;
                let (res, st) = Self::round(self.kind, self.sem, sign, mag, ea - eb - (n as i32 - 1), Lost::Zero, rm);
                let st = if exact { st } else { st.or(Status::INEXACT) };
                (res, st)
            }
        }
    }

    /// `APFloat::mod` (C's `fmod`): exact, the sign of the dividend.
    pub fn rem(&self, b: &ApFloat) -> (ApFloat, Status) {
        assert_eq!(self.kind, b.kind, "operands of one format");
        if let Some(r) = Self::nan_operand(self, b) {
            return r;
        }
        use Category::*;
        match (self.cat, b.cat) {
            (Zero, Infinity) | (Zero, Normal) | (Normal, Infinity) => return (*self, Status::OK),
            (Normal, Normal) => {}
            _ => return self.invalid(),
        }
        if self.compare_abs(b) == Ordering::Less {
            return (*self, Status::OK);
        }
        let ((mx, ex), (my, ey)) = (self.parts(), b.parts());
        let (r, unit) = if ex >= ey {
            let mut r = mx % my;
            for _ in 0..(ex - ey) {
                r = (r << 1) % my;
            }
            (r, ey)
        } else {
            (mx % (my << (ey - ex) as u32), ex)
        };
        let (mut res, st) =
            Self::round(self.kind, self.sem, self.sign, r, unit, Lost::Zero, RoundingMode::NearestTiesToEven);
        if res.cat == Zero {
            res.sign = self.sign;
            res.canonical_zero_sign();
        }
        (res, st)
    }

    /// `APFloat::changeSign` (`-x`): NaN and zero of the `...FNUZ` formats keep their sign.
    pub fn neg(&self) -> ApFloat {
        if self.sem.non_finite == NonFinite::NanNegZero && matches!(self.cat, Category::Zero | Category::NaN) {
            return *self;
        }
        ApFloat { sign: !self.sign, ..*self }
    }

    fn compare_abs(&self, b: &ApFloat) -> Ordering {
        self.exp.cmp(&b.exp).then(self.sig.cmp(&b.sig))
    }

    /// `APFloat::compare`: `None` when unordered (a NaN operand); `-0 == +0`.
    pub fn compare(&self, b: &ApFloat) -> Option<Ordering> {
        use Category::*;
        let less_if = |neg: bool| if neg { Ordering::Less } else { Ordering::Greater };
        Some(match (self.cat, b.cat) {
            (NaN, _) | (_, NaN) => return None,
            (Infinity, Normal) | (Infinity, Zero) | (Normal, Zero) => less_if(self.sign),
            (Normal, Infinity) | (Zero, Infinity) | (Zero, Normal) => less_if(!b.sign),
            (Infinity, Infinity) => match (self.sign, b.sign) {
                (x, y) if x == y => Ordering::Equal,
                (true, _) => Ordering::Less,
                _ => Ordering::Greater,
            },
            (Zero, Zero) => Ordering::Equal,
            (Normal, Normal) => {
                if self.sign != b.sign {
                    less_if(self.sign)
                } else if self.sign {
                    self.compare_abs(b).reverse()
                } else {
                    self.compare_abs(b)
                }
            }
        })
    }

    fn lt(&self, b: &ApFloat) -> bool {
        self.compare(b) == Some(Ordering::Less)
    }

    /// `llvm::maximum` (IEEE 754-2019 `maximum`): NaN-propagating, `+0 > -0`.
    pub fn maximum(&self, b: &ApFloat) -> ApFloat {
        if self.is_nan() {
            return *self;
        }
        if b.is_nan() {
            return *b;
        }
        if self.is_zero() && b.is_zero() && self.sign != b.sign {
            return if self.sign { *b } else { *self };
        }
        if self.lt(b) { *b } else { *self }
    }

    /// `llvm::minimum` (IEEE 754-2019 `minimum`): NaN-propagating, `-0 < +0`.
    pub fn minimum(&self, b: &ApFloat) -> ApFloat {
        if self.is_nan() {
            return *self;
        }
        if b.is_nan() {
            return *b;
        }
        if self.is_zero() && b.is_zero() && self.sign != b.sign {
            return if self.sign { *self } else { *b };
        }
        if b.lt(self) { *b } else { *self }
    }

    /// `llvm::maxnum` as of LLVM 19 (IEEE 754-2008 `maxNum`): a NaN operand yields the other;
    /// `+0 > -0`.
    pub fn maxnum(&self, b: &ApFloat) -> ApFloat {
        if self.is_nan() {
            return *b;
        }
        if b.is_nan() {
            return *self;
        }
        self.maximum(b)
    }

    /// `llvm::minnum` as of LLVM 19 (IEEE 754-2008 `minNum`): a NaN operand yields the other;
    /// `-0 < +0`.
    pub fn minnum(&self, b: &ApFloat) -> ApFloat {
        if self.is_nan() {
            return *b;
        }
        if b.is_nan() {
            return *self;
        }
        self.minimum(b)
    }

    // ----- conversions --------------------------------------------------------------------------

    /// `APFloat::convert` to `to`: the result, its status and `losesInfo`.
    pub fn convert(&self, to: FloatKind, rm: RoundingMode) -> (ApFloat, Status, bool) {
        let Some(ts) = Semantics::of(to) else { return (*self, Status::INVALID, true) };
        let fs = self.sem;
        match self.cat {
            Category::Normal => {
                let (m, e) = self.parts();
                let (r, st) = Self::round(to, ts, self.sign, m, e, Lost::Zero, rm);
                (r, st, st != Status::OK)
            }
            Category::NaN => {
                let signaling = self.is_signaling();
                let invalid = if signaling { Status::INVALID } else { Status::OK };
                if ts.non_finite != NonFinite::Ieee {
                    return (Self::make_nan(to, ts, self.sign), invalid, fs.non_finite == NonFinite::Ieee);
                }
                let x86_special = self.kind == FloatKind::F80 && to != FloatKind::F80 && (self.sig >> 62) != 0b11;
                let shift = ts.precision as i32 - fs.precision as i32;
                let (mut sig, lost) = if shift < 0 && fs.non_finite == NonFinite::Ieee {
                    let s = (-shift) as u32;
                    (self.sig >> s, self.sig & mask(s) != 0)
                } else if shift > 0 {
                    (self.sig << shift as u32, false)
                } else {
                    (self.sig, false)
                };
                sig &= mask(ts.precision);
                let mut r = ApFloat { kind: to, sem: ts, cat: Category::NaN, sign: self.sign, exp: 0, sig };
                if fs.non_finite == NonFinite::NanNegZero {
                    r = Self::make_nan(to, ts, false);
                }
                if !x86_special && ts.explicit_int {
                    r.sig |= 1u128 << (ts.precision - 1);
                }
                if signaling {
                    r = r.quieted();
                }
                (r, invalid, lost || x86_special)
            }
            Category::Infinity => {
                if ts.non_finite != NonFinite::Ieee {
                    return (Self::make_nan(to, ts, self.sign), Status::INEXACT, true);
                }
                (Self::special(to, ts, Category::Infinity, self.sign), Status::OK, false)
            }
            Category::Zero => {
                let loses =
                    ts.non_finite == NonFinite::NanNegZero && fs.non_finite != NonFinite::NanNegZero && self.sign;
                let r = Self::special(to, ts, Category::Zero, self.sign);
                (r, if loses { Status::INEXACT } else { Status::OK }, loses)
            }
        }
    }

    /// `APFloat::convertFromAPInt`: the integer `v` (two's complement when `signed`) rounded.
    pub fn from_apint(kind: FloatKind, v: &ApInt, signed: bool, rm: RoundingMode) -> Option<(ApFloat, Status)> {
        let sem = Semantics::of(kind)?;
        let negative = signed && v.is_negative();
        let mag = if negative { v.negate() } else { v.clone() };
        let words = apint_words(&mag);
        let len = mag.active_bits();
        if len == 0 {
            return Some((Self::special(kind, sem, Category::Zero, false), Status::OK));
        }
        // The top (up to) 126 bits, the rest as a lost fraction.
        let shift = len.saturating_sub(126);
        let top = extract_bits(&words, shift, len - shift);
        let lost = if shift == 0 {
            Lost::Zero
        } else {
            let half_bit = get_bit(&words, shift - 1);
            let below = (0..shift - 1).any(|i| get_bit(&words, i));
            match (half_bit, below) {
                (false, false) => Lost::Zero,
                (false, true) => Lost::LessThanHalf,
                (true, false) => Lost::Half,
                (true, true) => Lost::MoreThanHalf,
            }
        };
        Some(Self::round(kind, sem, negative, top, shift as i32, lost, rm))
    }

    /// `APFloat::convertToInteger` toward zero into `width` bits: `None` when the operation is
    /// invalid (NaN, infinity, out of range); the flag says whether the value was exact.
    pub fn to_apint_toward_zero(&self, width: u32, signed: bool) -> Option<(ApInt, bool)> {
        match self.cat {
            Category::NaN | Category::Infinity => return None,
            Category::Zero => return Some((ApInt::zero(width), !self.sign)),
            Category::Normal => {}
        }
        let (m, e) = self.parts();
        let (mag_len, exact) = if e >= 0 {
            (bit_len(m) as i64 + e as i64, true)
        } else {
            let s = (-e) as u32;
            let kept = if s >= 128 { 0 } else { m >> s };
            let exact = s < 128 && m & mask(s) == 0;
            (bit_len(kept) as i64, exact)
        };
        let w = width as i64;
        if self.sign && mag_len != 0 {
            if !signed {
                return None;
            }
            if mag_len > w {
                return None;
            }
            if mag_len == w {
                // Only the most negative value has its top bit alone.
                let power_of_two = if e >= 0 { m.is_power_of_two() } else { (m >> (-e) as u32).is_power_of_two() };
                if !power_of_two {
                    return None;
                }
            }
        } else if mag_len >= w + (!signed) as i64 {
            return None;
        }
        let mut words = vec![0u64; (width as usize).div_ceil(64).max(1)];
        let (val, at) = if e >= 0 {
            (m, e as u32)
        } else if -e < 128 {
            (m >> (-e) as u32, 0)
        } else {
            (0, 0)
        };
        for i in 0..128u32 {
            if (val >> i) & 1 == 1 {
                let bit = (at + i) as usize;
                if bit < words.len() * 64 {
                    words[bit / 64] |= 1u64 << (bit % 64);
                }
            }
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let v = ApInt::from_le_bytes(width, &bytes);
        Some((if self.sign { v.negate() } else { v }, exact))
    }
}

fn round_away(rm: RoundingMode, lost: Lost, sign: bool, odd: bool) -> bool {
    match rm {
        RoundingMode::NearestTiesToEven => lost == Lost::MoreThanHalf || (lost == Lost::Half && odd),
        RoundingMode::NearestTiesToAway => matches!(lost, Lost::MoreThanHalf | Lost::Half),
        RoundingMode::TowardZero => false,
        RoundingMode::TowardPositive => !sign,
        RoundingMode::TowardNegative => sign,
    }
}

/// `mag >> shift` and the lost fraction of the bits shifted out.
fn shift_right(mag: u128, shift: u32) -> (u128, Lost) {
    if shift > 128 {
        return (0, if mag == 0 { Lost::Zero } else { Lost::LessThanHalf });
    }
    let kept = if shift == 128 { 0 } else { mag >> shift };
    let dropped = mag & mask(shift);
    let half = 1u128 << (shift - 1);
    let lost = match dropped.cmp(&half) {
        _ if dropped == 0 => Lost::Zero,
        Ordering::Less => Lost::LessThanHalf,
        Ordering::Equal => Lost::Half,
        Ordering::Greater => Lost::MoreThanHalf,
    };
    (kept, lost)
}

/// `APFloat::combineLostFractions`: `more` lies below the unit of `base`.
fn combine(base: Lost, more: Lost) -> Lost {
    if more == Lost::Zero {
        return base;
    }
    match base {
        Lost::Zero => Lost::LessThanHalf,
        Lost::Half => Lost::MoreThanHalf,
        b => b,
    }
}

/// The 256-bit product of two 128-bit numbers as `(high, low)`.
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64 as u128, a >> 64);
    let (b0, b1) = (b as u64 as u128, b >> 64);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    let lo = (p00 as u64 as u128) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

/// A 256-bit number narrowed to at most 126 bits: `(mag, shift, lost)` with the value
/// `mag * 2^shift` plus the lost fraction.
fn narrow_wide(hi: u128, lo: u128) -> (u128, i32, Lost) {
    let len = if hi != 0 { 128 + bit_len(hi) } else { bit_len(lo) };
    if len <= 126 {
        return (lo, 0, Lost::Zero);
    }
    let s = len - 126;
    // (hi:lo) >> s, s < 128 + 2.
    let mag = if s >= 128 { hi >> (s - 128) } else { (lo >> s) | (hi << (128 - s)) };
    let (half, below) = if s > 128 {
        let t = s - 128;
        ((hi >> (t - 1)) & 1 == 1, hi & mask(t - 1) != 0 || lo != 0)
    } else if s == 128 {
        (lo >> 127 == 1, lo & mask(127) != 0)
    } else {
        ((lo >> (s - 1)) & 1 == 1, lo & mask(s - 1) != 0)
    };
    let lost = match (half, below) {
        (false, false) => Lost::Zero,
        (false, true) => Lost::LessThanHalf,
        (true, false) => Lost::Half,
        (true, true) => Lost::MoreThanHalf,
    };
    (mag, s as i32, lost)
}

fn apint_words(v: &ApInt) -> Vec<u64> {
    let n = (v.width() as usize).div_ceil(64).max(1);
    v.to_le_bytes(n * 8).chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect()
}

fn get_bit(words: &[u64], i: u32) -> bool {
    words.get(i as usize / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)
}

/// `count` (at most 128) bits of `words` from bit `from` upward.
fn extract_bits(words: &[u64], from: u32, count: u32) -> u128 {
    (0..count).fold(0u128, |acc, i| acc | (get_bit(words, from + i) as u128) << i)
}

#[cfg(test)]
mod tests;
