//! Affine expressions, affine maps (`affine_map<...>`) and integer sets (`affine_set<...>`):
//! the grammar, the simplifications MLIR applies whenever an expression is built, and the
//! printed form.
//!
//! mlir-opt never stores an affine expression as written: each `+`, `*`, `floordiv`,
//! `ceildiv` and `mod` goes through a simplifying constructor (constant folding, constants
//! moved to the right, `x * 1`, `x + 0`, merging of `c1 * e + c2 * e`, `e - (e floordiv c) * c`
//! into `e mod c`, divisibility-based folds, ...). The result is what gets printed, so to
//! print byte for byte like mlir-opt-19 we replay the same constructors in the same order the
//! parser calls them, then print with MLIR's parenthesization rules. The rules were
//! established by running many small inputs through mlir-opt-19 (see the unit tests and
//! `tools/mlirgen/affine_fuzz.py`).
//!
//! Invariants:
//! - every [`AffineExpr`] is built through [`add`], [`mul`], [`floor_div`], [`ceil_div`] or
//!   [`modulo`] (never by hand outside them), so the tree is always in MLIR's canonical shape;
//! - structural equality of two trees stands in for MLIR's identity of uniqued expressions;
//! - integer arithmetic never panics: MLIR's unchecked 64-bit arithmetic wraps here, and folds
//!   that MLIR refuses on overflow (constant `+`, `*`, division of `i64::MIN` by `-1`) leave the
//!   expression unsimplified, as MLIR does.
//!
//! Affine maps and sets are stored in [`AttrKind::AffineMap`] / [`AttrKind::IntegerSet`] as this
//! printed text; the attribute printer emits it verbatim. MLIR uniques maps by their expression
//! trees, and the printed text loses one distinction: the right operand of a `+` is printed
//! without parentheses, so `(d0 + d1) + 5` and `d0 + (d1 + 5)` both print `d0 + d1 + 5` yet are
//! two maps (`#map`, `#map1`). Such a map also carries a *structure key*, its text with that
//! right operand parenthesized, which takes part in the attribute's identity.
//!
//! [`AttrKind::AffineMap`]: crate::attrs::AttrKind::AffineMap
//! [`AttrKind::IntegerSet`]: crate::attrs::AttrKind::IntegerSet

use super::lexer::{TokKind, parse_u64_literal};
use super::{PResult, Parser};

/// The binary operators of affine expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BinOp {
    Add,
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
}

impl BinOp {
    /// The operator as MLIR spells it between its operands.
    fn spelling(self) -> &'static str {
        match self {
            BinOp::Add => " + ",
            BinOp::Mul => " * ",
            BinOp::FloorDiv => " floordiv ",
            BinOp::CeilDiv => " ceildiv ",
            BinOp::Mod => " mod ",
        }
    }

    /// The keyword of a high-precedence operator written as a word.
    fn from_keyword(kw: &[u8]) -> Option<BinOp> {
        match kw {
            b"floordiv" => Some(BinOp::FloorDiv),
            b"ceildiv" => Some(BinOp::CeilDiv),
            b"mod" => Some(BinOp::Mod),
            _ => None,
        }
    }
}

/// An affine expression in MLIR's canonical (simplified) form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum AffineExpr {
    Dim(u32),
    Sym(u32),
    Const(i64),
    Bin(BinOp, Box<AffineExpr>, Box<AffineExpr>),
}

use AffineExpr as E;

impl AffineExpr {
    fn bin(op: BinOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        E::Bin(op, Box::new(lhs), Box::new(rhs))
    }

    fn as_const(&self) -> Option<i64> {
        match self {
            E::Const(c) => Some(*c),
            _ => None,
        }
    }

    /// True if the expression mentions no dimension (MLIR's `isSymbolicOrConstant`).
    fn is_symbolic_or_constant(&self) -> bool {
        match self {
            E::Dim(_) => false,
            E::Sym(_) | E::Const(_) => true,
            E::Bin(_, l, r) => l.is_symbolic_or_constant() && r.is_symbolic_or_constant(),
        }
    }

    /// The largest integer known to divide every value of the expression (MLIR's
    /// `getLargestKnownDivisor`; 64-bit arithmetic wraps like MLIR's).
    fn largest_known_divisor(&self) -> i64 {
        match self {
            E::Dim(_) | E::Sym(_) => 1,
            E::Const(c) => c.wrapping_abs(),
            E::Bin(BinOp::Mul, l, r) => l.largest_known_divisor().wrapping_mul(r.largest_known_divisor()),
            E::Bin(BinOp::Add | BinOp::Mod, l, r) => {
                gcd(l.largest_known_divisor() as u64, r.largest_known_divisor() as u64) as i64
            }
            E::Bin(BinOp::FloorDiv | BinOp::CeilDiv, l, r) => match r.as_const() {
                Some(c) if c != 0 => {
                    let lhs_div = l.largest_known_divisor();
                    if lhs_div.checked_rem(c) == Some(0) { lhs_div.wrapping_div(c).wrapping_abs() } else { 1 }
                }
                _ => 1,
            },
        }
    }

    /// `-e`, built as `e * -1`.
    pub(super) fn neg(self) -> AffineExpr {
        mul(self, E::Const(-1))
    }

    /// `self - rhs`, built as `self + rhs * -1`.
    pub(super) fn sub(self, rhs: AffineExpr) -> AffineExpr {
        add(self, rhs.neg())
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `divisor` divides `value` (false for a zero divisor).
fn divides(divisor: i64, value: i64) -> bool {
    value.checked_rem(divisor) == Some(0) || (divisor == -1)
}

/// Floor division; `None` on overflow (`i64::MIN / -1`) or a zero divisor.
fn floor_div_i64(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    Some(if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

/// Ceiling division; `None` on overflow (`i64::MIN / -1`) or a zero divisor.
fn ceil_div_i64(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    Some(if a % b != 0 && ((a < 0) == (b < 0)) { q + 1 } else { q })
}

/// Splits `e * c` into `(c, e)`; any other expression is `(1, itself)`.
fn split_constant_factor(e: &AffineExpr) -> (i64, &AffineExpr) {
    match e {
        E::Bin(BinOp::Mul, l, r) => match r.as_const() {
            Some(c) => (c, l),
            None => (1, e),
        },
        _ => (1, e),
    }
}

// ----- simplifying constructors ------------------------------------------------------------

/// `lhs + rhs`, simplified as MLIR's `AffineExpr::operator+` does.
pub(super) fn add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    simplify_add(&lhs, &rhs).unwrap_or_else(|| E::bin(BinOp::Add, lhs, rhs))
}

fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let rhs_const = rhs.as_const();
    if let (Some(a), Some(b)) = (lhs.as_const(), rhs_const) {
        return a.checked_add(b).map(E::Const);
    }
    // Constants go right; so does the symbolic operand when only one is symbolic.
    if lhs.as_const().is_some() || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant()) {
        return Some(add(rhs.clone(), lhs.clone()));
    }
    if rhs_const == Some(0) {
        return Some(lhs.clone());
    }
    // (e + c1) + c2 -> e + (c1 + c2)
    let lhs_add_const = match lhs {
        E::Bin(BinOp::Add, ll, lr) => lr.as_const().map(|c| (&**ll, c)),
        _ => None,
    };
    if let (Some((inner, c1)), Some(c2)) = (lhs_add_const, rhs_const) {
        return Some(add(inner.clone(), E::Const(c1.wrapping_add(c2))));
    }
    // c1 * e + c2 * e -> e * (c1 + c2)
    let (c1, e1) = split_constant_factor(lhs);
    let (c2, e2) = split_constant_factor(rhs);
    if e1 == e2 {
        return Some(mul(e1.clone(), E::Const(c1.wrapping_add(c2))));
    }
    // (e + c) + f -> (e + f) + c
    if let Some((inner, c)) = lhs_add_const {
        return Some(add(add(inner.clone(), rhs.clone()), E::Const(c)));
    }
    fold_into_mod(lhs, rhs)
}

/// `e + ((e floordiv q) * q) * -1` and `e + (e floordiv q) * r` with `r == -q` (as built by
/// [`AffineExpr::neg`]) are `e mod q`, whatever `q` is. MLIR's first check looks only at the
/// right operand of the outer binary expression, whatever its operator, and we do the same.
fn fold_into_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let E::Bin(rhs_op, rl, rr) = rhs else { return None };
    if rr.as_const() == Some(-1)
        && let E::Bin(BinOp::Mul, product_lhs, q) = &**rl
    {
        let E::Bin(BinOp::FloorDiv, dividend, divisor) = &**product_lhs else { return None };
        if divisor == q && &**dividend == lhs {
            return Some(modulo(lhs.clone(), (**q).clone()));
        }
    }
    if *rhs_op != BinOp::Mul {
        return None;
    }
    let E::Bin(BinOp::FloorDiv, dividend, divisor) = &**rl else { return None };
    if &**dividend == lhs && **divisor == (**rr).clone().neg() {
        return Some(modulo(lhs.clone(), (**divisor).clone()));
    }
    None
}

/// `lhs * rhs`, simplified as MLIR's `AffineExpr::operator*` does.
pub(super) fn mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    simplify_mul(&lhs, &rhs).unwrap_or_else(|| E::bin(BinOp::Mul, lhs, rhs))
}

fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let rhs_const = rhs.as_const();
    if let (Some(a), Some(b)) = (lhs.as_const(), rhs_const) {
        return a.checked_mul(b).map(E::Const);
    }
    let (lhs_sym, rhs_sym) = (lhs.is_symbolic_or_constant(), rhs.is_symbolic_or_constant());
    if !lhs_sym && !rhs_sym {
        return None;
    }
    // The constant / symbolic operand goes right.
    if !rhs_sym || lhs.as_const().is_some() {
        return Some(mul(rhs.clone(), lhs.clone()));
    }
    match rhs_const {
        Some(1) => return Some(lhs.clone()),
        Some(0) => return Some(E::Const(0)),
        _ => {}
    }
    if let E::Bin(BinOp::Mul, ll, lr) = lhs
        && let Some(c1) = lr.as_const()
    {
        return Some(match rhs_const {
            // (e * c1) * c2 -> e * (c1 * c2)
            Some(c2) => mul((**ll).clone(), E::Const(c1.wrapping_mul(c2))),
            // (e * c) * f -> (e * f) * c
            None => mul(mul((**ll).clone(), rhs.clone()), E::Const(c1)),
        });
    }
    None
}

/// `lhs floordiv rhs`, simplified as MLIR's `AffineExpr::floorDiv` does.
pub(super) fn floor_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    simplify_floor_div(&lhs, &rhs).unwrap_or_else(|| E::bin(BinOp::FloorDiv, lhs, rhs))
}

fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let divisor = rhs.as_const().filter(|c| *c != 0)?;
    if let Some(c) = lhs.as_const() {
        return floor_div_i64(c, divisor).map(E::Const);
    }
    if divisor == 1 {
        return Some(lhs.clone());
    }
    match lhs {
        // (e * c1) floordiv c2 -> e * (c1 / c2) when c2 divides c1
        E::Bin(BinOp::Mul, ll, lr) => {
            let c1 = lr.as_const()?;
            divides(divisor, c1).then(|| mul((**ll).clone(), E::Const(c1.wrapping_div(divisor))))
        }
        // (a + b) floordiv c -> a floordiv c + b floordiv c when c divides a or b
        E::Bin(BinOp::Add, a, b) => {
            let splits = divides(divisor, a.largest_known_divisor()) || divides(divisor, b.largest_known_divisor());
            splits.then(|| add(floor_div((**a).clone(), rhs.clone()), floor_div((**b).clone(), rhs.clone())))
        }
        _ => None,
    }
}

/// `lhs ceildiv rhs`, simplified as MLIR's `AffineExpr::ceilDiv` does.
pub(super) fn ceil_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    simplify_ceil_div(&lhs, &rhs).unwrap_or_else(|| E::bin(BinOp::CeilDiv, lhs, rhs))
}

fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let divisor = rhs.as_const().filter(|c| *c != 0)?;
    if let Some(c) = lhs.as_const() {
        return ceil_div_i64(c, divisor).map(E::Const);
    }
    if divisor == 1 {
        return Some(lhs.clone());
    }
    // (e * c1) ceildiv c2 -> e * (c1 / c2) when c2 divides c1
    let E::Bin(BinOp::Mul, ll, lr) = lhs else { return None };
    let c1 = lr.as_const()?;
    divides(divisor, c1).then(|| mul((**ll).clone(), E::Const(c1.wrapping_div(divisor))))
}

/// `lhs mod rhs`, simplified as MLIR's `AffineExpr::operator%` does.
pub(super) fn modulo(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    simplify_mod(&lhs, &rhs).unwrap_or_else(|| E::bin(BinOp::Mod, lhs, rhs))
}

fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let m = rhs.as_const().filter(|c| *c >= 1)?;
    if let Some(c) = lhs.as_const() {
        return Some(E::Const(c.rem_euclid(m)));
    }
    if divides(m, lhs.largest_known_divisor()) {
        return Some(E::Const(0));
    }
    match lhs {
        // (a + b) mod c -> b mod c when c divides a (or a mod c when c divides b)
        E::Bin(BinOp::Add, a, b) => {
            if divides(m, a.largest_known_divisor()) {
                Some(modulo((**b).clone(), rhs.clone()))
            } else if divides(m, b.largest_known_divisor()) {
                Some(modulo((**a).clone(), rhs.clone()))
            } else {
                None
            }
        }
        // (e mod c1) mod c2 -> e mod c2 when c2 divides c1
        E::Bin(BinOp::Mod, inner, c1) => {
            let c1 = c1.as_const().filter(|c| *c >= 1)?;
            (c1.rem_euclid(m) == 0).then(|| modulo((**inner).clone(), rhs.clone()))
        }
        _ => None,
    }
}

/// Applies a binary operator through its simplifying constructor.
fn build(op: BinOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    match op {
        BinOp::Add => add(lhs, rhs),
        BinOp::Mul => mul(lhs, rhs),
        BinOp::FloorDiv => floor_div(lhs, rhs),
        BinOp::CeilDiv => ceil_div(lhs, rhs),
        BinOp::Mod => modulo(lhs, rhs),
    }
}

// ----- printing ------------------------------------------------------------------------------

/// Prints an expression as mlir-opt does. `strong` is true when the enclosing context binds
/// tightly (an operand of `*`, `floordiv`, `ceildiv`, `mod`, or a subtracted product), in which
/// case anything but an atom is parenthesized.
///
/// With `keyed`, prints the structure key instead: a sum's right operand that is itself a sum
/// gets parentheses.
fn print_expr_as(e: &AffineExpr, out: &mut String, strong: bool, keyed: bool) {
    match e {
        E::Dim(i) => {
            out.push('d');
            out.push_str(&i.to_string());
        }
        E::Sym(i) => {
            out.push('s');
            out.push_str(&i.to_string());
        }
        E::Const(c) => out.push_str(&c.to_string()),
        E::Bin(op, l, r) => {
            if strong {
                out.push('(');
            }
            if *op == BinOp::Add {
                print_sum(l, r, out, keyed);
            } else if *op == BinOp::Mul && r.as_const() == Some(-1) {
                out.push('-');
                print_expr_as(l, out, true, keyed);
            } else {
                print_expr_as(l, out, true, keyed);
                out.push_str(op.spelling());
                print_expr_as(r, out, true, keyed);
            }
            if strong {
                out.push(')');
            }
        }
    }
}

/// Prints `lhs + rhs`, written as a subtraction when `rhs` is a negative constant or a
/// product with a negative constant.
fn print_sum(lhs: &AffineExpr, rhs: &AffineExpr, out: &mut String, keyed: bool) {
    print_expr_as(lhs, out, false, keyed);
    if let E::Bin(BinOp::Mul, rl, rr) = rhs {
        match rr.as_const() {
            Some(-1) => {
                out.push_str(" - ");
                let is_sum = matches!(**rl, E::Bin(BinOp::Add, ..));
                print_expr_as(rl, out, is_sum, keyed);
                return;
            }
            Some(c) if c < -1 => {
                out.push_str(" - ");
                print_expr_as(rl, out, true, keyed);
                out.push_str(" * ");
                out.push_str(&c.wrapping_neg().to_string());
                return;
            }
            _ => {}
        }
    }
    match rhs.as_const() {
        Some(c) if c < 0 => {
            out.push_str(" - ");
            out.push_str(&c.wrapping_neg().to_string());
        }
        _ => {
            out.push_str(" + ");
            let nested_sum = keyed && matches!(rhs, E::Bin(BinOp::Add, ..));
            print_expr_as(rhs, out, nested_sum, keyed);
        }
    }
}

// ----- parsing -------------------------------------------------------------------------------

/// The names of the dimensions and symbols of the map or set being parsed.
struct AffineScope {
    dims: Vec<Vec<u8>>,
    syms: Vec<Vec<u8>>,
}

/// Prints the `(d0, ...)[s0, ...]` header of a map or set.
fn print_header(dims: usize, syms: usize, out: &mut String) {
    let names = |prefix: char, n: usize| (0..n).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>().join(", ");
    out.push('(');
    out.push_str(&names('d', dims));
    out.push(')');
    if syms > 0 {
        out.push('[');
        out.push_str(&names('s', syms));
        out.push(']');
    }
}

/// The printed text of a map or set and its structure key, built side by side.
#[derive(Default)]
struct AffineText {
    text: String,
    key: String,
}

impl AffineText {
    fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
        self.key.push_str(s);
    }
    fn expr(&mut self, e: &AffineExpr) {
        print_expr_as(e, &mut self.text, false, false);
        print_expr_as(e, &mut self.key, false, true);
    }
}

const BAD_CONSTRAINT: &str = "expected '== affine-expr' or '>= affine-expr' at end of affine constraint";

impl<'a> Parser<'a> {
    /// Parses the inside of `affine_map<...>` (`is_map`) or `affine_set<...>` and returns it
    /// as mlir-opt prints it, with its structure key when that differs from the text (see the
    /// module doc). Either form is parsed first; the wrong one is then rejected.
    pub(super) fn parse_affine_body(&mut self, is_map: bool) -> PResult<(String, Option<String>)> {
        let start = self.tok.start;
        let mut scope = AffineScope { dims: Vec::new(), syms: Vec::new() };
        self.parse_affine_id_list(&mut scope, true)?;
        if self.is(TokKind::LSquare) {
            self.parse_affine_id_list(&mut scope, false)?;
        }
        let mut out = AffineText::default();
        let mut header = String::new();
        print_header(scope.dims.len(), scope.syms.len(), &mut header);
        out.push_str(&header);
        let got_map = if self.consume_if(TokKind::Arrow) {
            out.push_str(" -> (");
            self.parse_affine_map_results(&scope, &mut out)?;
            true
        } else if self.consume_if(TokKind::Colon) {
            out.push_str(" : (");
            self.parse_integer_set_constraints(&scope, &mut out)?;
            false
        } else {
            return Err(self.wrong_token("expected '->' or ':'"));
        };
        out.push_str(")");
        match (is_map, got_map) {
            (true, false) => Err(self.error_at(start, "expected AffineMap, but got IntegerSet")),
            (false, true) => Err(self.error_at(start, "expected IntegerSet, but got AffineMap")),
            _ => {
                let key = (out.key != out.text).then_some(out.key);
                Ok((out.text, key))
            }
        }
    }

    /// `( expr, ... )` of an affine map, appended printed and comma-separated to `out`.
    fn parse_affine_map_results(&mut self, scope: &AffineScope, out: &mut AffineText) -> PResult<()> {
        self.expect(TokKind::LParen, "expected '(' in affine map range")?;
        if self.consume_if(TokKind::RParen) {
            return Ok(());
        }
        loop {
            let e = self.parse_affine_expr(scope)?;
            out.expr(&e);
            if !self.consume_if(TokKind::Comma) {
                break;
            }
            out.push_str(", ");
        }
        self.expect(TokKind::RParen, "expected ')' in affine map range")
    }

    /// `( constraint, ... )` of an integer set; an empty list is the trivially true `0 == 0`.
    fn parse_integer_set_constraints(&mut self, scope: &AffineScope, out: &mut AffineText) -> PResult<()> {
        self.expect(TokKind::LParen, "expected '(' in integer set constraint list")?;
        if self.consume_if(TokKind::RParen) {
            out.push_str("0 == 0");
            return Ok(());
        }
        loop {
            let (e, is_eq) = self.parse_affine_constraint(scope)?;
            out.expr(&e);
            out.push_str(if is_eq { " == 0" } else { " >= 0" });
            if !self.consume_if(TokKind::Comma) {
                break;
            }
            out.push_str(", ");
        }
        self.expect(TokKind::RParen, "expected ')' in integer set constraint list")
    }

    /// `a >= b` is `a - b >= 0`, `a <= b` is `b - a >= 0`, `a == b` is `a - b == 0`.
    fn parse_affine_constraint(&mut self, scope: &AffineScope) -> PResult<(AffineExpr, bool)> {
        let lhs = self.parse_affine_expr(scope)?;
        let (first, is_eq) = match self.tok.kind {
            TokKind::Greater => (TokKind::Greater, false),
            TokKind::Less => (TokKind::Less, false),
            TokKind::Equal => (TokKind::Equal, true),
            _ => return Err(self.error_here(BAD_CONSTRAINT)),
        };
        self.advance();
        if !self.consume_if(TokKind::Equal) {
            return Err(self.error_here(BAD_CONSTRAINT));
        }
        let rhs = self.parse_affine_expr(scope)?;
        Ok(if first == TokKind::Less { (rhs.sub(lhs), false) } else { (lhs.sub(rhs), is_eq) })
    }

    /// `(name, ...)` (dimensions) or `[name, ...]` (symbols).
    fn parse_affine_id_list(&mut self, scope: &mut AffineScope, dims: bool) -> PResult<()> {
        let (open, close, what) = if dims {
            (TokKind::LParen, TokKind::RParen, "dimensional identifier list")
        } else {
            (TokKind::LSquare, TokKind::RSquare, "symbol list")
        };
        let (open_char, close_char) = if dims { ('(', ')') } else { ('[', ']') };
        self.expect(open, &format!("expected '{open_char}' in {what}"))?;
        if self.consume_if(close) {
            return Ok(());
        }
        loop {
            if !matches!(self.tok.kind, TokKind::BareIdent | TokKind::IntType) {
                return Err(self.wrong_token("expected bare identifier"));
            }
            let name = self.tok_text().to_vec();
            if scope.dims.contains(&name) || scope.syms.contains(&name) {
                return Err(self.error_here("redefinition of identifier '".to_string() + &self.str_of(&name) + "'"));
            }
            self.advance();
            if dims {
                scope.dims.push(name)
            } else {
                scope.syms.push(name)
            }
            if !self.consume_if(TokKind::Comma) {
                break;
            }
        }
        self.expect(close, &format!("expected '{close_char}' in {what}"))
    }

    /// `expr ::= term (('+' | '-') term)*`, left-associative.
    fn parse_affine_expr(&mut self, scope: &AffineScope) -> PResult<AffineExpr> {
        self.nested(|p| {
            let mut lhs = p.parse_affine_term(scope, false)?;
            loop {
                let negate = match p.tok.kind {
                    TokKind::Plus => false,
                    TokKind::Minus => true,
                    _ => return Ok(lhs),
                };
                p.advance();
                let rhs = p.parse_affine_term(scope, true)?;
                lhs = if negate { lhs.sub(rhs) } else { add(lhs, rhs) };
            }
        })
    }

    /// `term ::= factor (('*' | 'floordiv' | 'ceildiv' | 'mod') factor)*`, left-associative.
    /// `has_lhs`: the term is the right operand of `+` / `-` (for diagnostics).
    fn parse_affine_term(&mut self, scope: &AffineScope, has_lhs: bool) -> PResult<AffineExpr> {
        let mut lhs = self.parse_affine_factor(scope, has_lhs)?;
        loop {
            let op = match self.tok.kind {
                TokKind::Star => BinOp::Mul,
                TokKind::BareIdent => match BinOp::from_keyword(self.tok_text()) {
                    Some(op) => op,
                    None => return Ok(lhs),
                },
                _ => return Ok(lhs),
            };
            let op_at = self.tok.start;
            self.advance();
            let rhs = self.parse_affine_factor(scope, true)?;
            // MLIR reports a non-affine `a op b` at the operator that follows `b`, if any.
            let check_at = if self.at_high_prec_op() { self.tok.start } else { op_at };
            self.check_affine_operands(op, &lhs, &rhs, check_at)?;
            lhs = build(op, lhs, rhs);
        }
    }

    /// Whether the current token is `*`, `floordiv`, `ceildiv` or `mod`.
    fn at_high_prec_op(&self) -> bool {
        match self.tok.kind {
            TokKind::Star => true,
            TokKind::BareIdent => BinOp::from_keyword(self.tok_text()).is_some(),
            _ => false,
        }
    }

    /// Rejects products of two dimension-dependent operands and dimension-dependent divisors.
    fn check_affine_operands(&mut self, op: BinOp, lhs: &AffineExpr, rhs: &AffineExpr, op_at: usize) -> PResult<()> {
        if rhs.is_symbolic_or_constant() || (op == BinOp::Mul && lhs.is_symbolic_or_constant()) {
            return Ok(());
        }
        let msg = match op {
            BinOp::Mul => {
                "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"
                    .to_string()
            }
            _ => format!(
                "non-affine expression: right operand of{}has to be either a constant or symbolic",
                op.spelling()
            ),
        };
        Err(self.error_at(op_at, msg))
    }

    /// `factor ::= '(' expr ')' | '-' factor | integer | dim-or-symbol-name`. `has_lhs`: an
    /// operand precedes this one in the enclosing expression (for diagnostics).
    fn parse_affine_factor(&mut self, scope: &AffineScope, has_lhs: bool) -> PResult<AffineExpr> {
        match self.tok.kind {
            TokKind::LParen => {
                self.advance();
                if self.is(TokKind::RParen) {
                    return Err(self.error_here("no expression inside parentheses"));
                }
                let e = self.parse_affine_expr(scope)?;
                self.expect(TokKind::RParen, "expected ')'")?;
                Ok(e)
            }
            TokKind::Minus => {
                self.advance();
                match self.nested(|p| p.parse_affine_factor(scope, has_lhs)) {
                    Ok(e) => Ok(e.neg()),
                    // MLIR adds this error to the operand's own.
                    Err(_) => {
                        let mut at = self.tok.start;
                        if self.tok.kind == TokKind::Eof {
                            at = at.saturating_sub(1);
                        }
                        Err(self.error_also(at, "missing operand of negation"))
                    }
                }
            }
            TokKind::Integer => {
                let text = std::str::from_utf8(self.tok_text()).ok();
                match text.and_then(parse_u64_literal).and_then(|v| i64::try_from(v).ok()) {
                    Some(v) => {
                        self.advance();
                        Ok(E::Const(v))
                    }
                    None => Err(self.error_here("constant too large for index")),
                }
            }
            TokKind::PercentIdent => Err(self.wrong_token("unexpected ssa identifier")),
            TokKind::BareIdent if self.is_kw("symbol") => {
                self.advance();
                if !self.consume_if(TokKind::LParen) {
                    return Err(self.wrong_token("expected '(' at start of SSA symbol"));
                }
                Err(self.wrong_token("unexpected ssa identifier"))
            }
            TokKind::BareIdent | TokKind::IntType => {
                let name = self.tok_text();
                let e = if let Some(i) = scope.dims.iter().position(|d| d.as_slice() == name) {
                    E::Dim(i as u32)
                } else if let Some(i) = scope.syms.iter().position(|d| d.as_slice() == name) {
                    E::Sym(i as u32)
                } else {
                    return Err(self.wrong_token("use of undeclared identifier"));
                };
                self.advance();
                Ok(e)
            }
            TokKind::Plus | TokKind::Star if !has_lhs => {
                Err(self.error_here("missing left operand of binary operator"))
            }
            _ if has_lhs => Err(self.error_here("missing right operand of binary operator")),
            _ => Err(self.error_here("expected affine expression")),
        }
    }
}

/// Number of dimensions of a normalized affine map and whether it is an identity (MLIR's
/// `AffineMap::isIdentity`: results `d0, ..., dN-1` for N dimensions; symbols do not matter).
pub(super) fn affine_map_shape(text: &str) -> (usize, bool) {
    let inside = text.strip_prefix('(').and_then(|t| t.split_once(')')).map(|(d, _)| d).unwrap_or("");
    let dims = if inside.trim().is_empty() { 0 } else { inside.split(',').count() };
    let results = text.split_once(" -> (").and_then(|(_, r)| r.strip_suffix(')'));
    let identity_results = (0..dims).map(|i| format!("d{i}")).collect::<Vec<_>>().join(", ");
    (dims, results == Some(identity_results.as_str()))
}

#[cfg(test)]
mod tests {
    //! (input, mlir-opt-19 output) pairs observed with
    //! `mlir-opt-19 --allow-unregistered-dialect --mlir-print-local-scope`.

    use super::super::parse_attr_str;
    use super::*;
    use crate::attrs::AttrKind;
    use crate::context::Context;

    /// The stored text of `affine_map<(d0, d1)[s0] -> (<results>)>`'s results.
    fn map_results(results: &str) -> String {
        let c = Context::empty();
        let text = format!("affine_map<(d0, d1)[s0] -> ({results})>");
        let a = parse_attr_str(&c, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        match c.attr_kind(a) {
            AttrKind::AffineMap(t, _) => {
                t.strip_prefix("(d0, d1)[s0] -> (").and_then(|t| t.strip_suffix(')')).unwrap().to_string()
            }
            other => panic!("{other:?}"),
        }
    }

    fn set_text(text: &str) -> String {
        let c = Context::empty();
        let a = parse_attr_str(&c, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        match c.attr_kind(a) {
            AttrKind::IntegerSet(t, _) => t.to_string(),
            other => panic!("{other:?}"),
        }
    }

    /// Maps printed alike but built differently are distinct attributes, as in MLIR.
    #[test]
    fn right_nested_sums_are_distinct_maps() {
        let c = Context::empty();
        let map = |t: &str| parse_attr_str(&c, t).unwrap();
        let left = map("affine_map<(i, j) -> ((i + j) + 5)>");
        let right = map("affine_map<(i, j) -> (i + (j + 5))>");
        assert_ne!(left, right);
        assert_eq!(left, map("affine_map<(d0, d1) -> (d0 + d1 + 5)>"));
        assert_eq!(c.attr_kind(left), &AttrKind::AffineMap("(d0, d1) -> (d0 + d1 + 5)".into(), None));
        assert_eq!(
            c.attr_kind(right),
            &AttrKind::AffineMap("(d0, d1) -> (d0 + d1 + 5)".into(), Some("(d0, d1) -> (d0 + (d1 + 5))".into()))
        );
        let set_l = map("affine_set<(i, j) : ((i + j) - 5 >= 0)>");
        let set_r = map("affine_set<(i, j) : (i + (j - 5) >= 0)>");
        assert_ne!(set_l, set_r);
    }

    fn error_of(text: &str) -> String {
        parse_attr_str(&Context::empty(), text).expect_err(text)
    }

    #[track_caller]
    fn check(pairs: &[(&str, &str)]) {
        for (input, expected) in pairs {
            assert_eq!(map_results(input), *expected, "input: {input}");
        }
    }

    #[test]
    fn constants_fold() {
        check(&[
            ("4 * 2 + 1", "9"),
            ("-7 floordiv 2", "-4"),
            ("7 ceildiv -2", "-3"),
            ("-7 mod 3", "2"),
            ("5 floordiv 0", "5 floordiv 0"),
            ("5 mod -2", "5 mod -2"),
            ("9223372036854775807 + 1", "9223372036854775807 + 1"),
            ("9223372036854775807 * 2", "9223372036854775807 * 2"),
            ("-(-d0)", "d0"),
        ]);
    }

    #[test]
    fn additions_are_canonicalized() {
        check(&[
            ("0 + d0", "d0"),
            ("d0 - 1 - 1", "d0 - 2"),
            ("s0 + d0", "d0 + s0"),
            ("s0 + (d0 + 1)", "d0 + s0 + 1"),
            ("(d0 + 2) + d1", "d0 + d1 + 2"),
            ("3 + d0 * 2 + d0", "d0 * 3 + 3"),
            ("d0 + d0", "d0 * 2"),
            ("d0 - d0", "0"),
            ("d0 * 2 - d0 * 2", "0"),
            ("d0 - (d1 + d0)", "d0 - (d1 + d0)"),
            ("d0 - (d0 floordiv 4) * 4", "d0 mod 4"),
            ("d0 - (d0 floordiv s0) * s0", "d0 mod s0"),
            ("(d0 floordiv 2) * 2 - d0", "(d0 floordiv 2) * 2 - d0"),
            ("d0 + (d0 floordiv s0) * (-s0)", "d0 mod s0"),
            ("d0 + (d0 floordiv -2) * 2", "d0 mod -2"),
            ("d0 + (d0 floordiv (s0 * 2)) * (s0 * -2)", "d0 mod (s0 * 2)"),
            ("d0 + (d0 floordiv (-s0)) * s0", "d0 mod (-s0)"),
            ("d0 + (d0 floordiv (s0 + 1)) * (-s0 - 1)", "d0 + (d0 floordiv (s0 + 1)) * (-s0 - 1)"),
            ("d0 + ((d0 floordiv s0) * s0) mod -1", "d0 mod s0"),
            ("(d0 + 1) - ((d0 + 1) floordiv 3) * 3", "d0 - ((d0 + 1) floordiv 3) * 3 + 1"),
        ]);
    }

    #[test]
    fn products_are_canonicalized() {
        check(&[
            ("2 * d0", "d0 * 2"),
            ("d0 * 1", "d0"),
            ("d0 * 0", "0"),
            ("s0 * d0", "d0 * s0"),
            ("(d0 * 2) * s0", "(d0 * s0) * 2"),
            ("s0 * 2 * s0", "(s0 * s0) * 2"),
            ("(-d0) * s0", "-(d0 * s0)"),
            ("-d0 * 3", "d0 * -3"),
            ("s0 * (d0 + 1)", "(d0 + 1) * s0"),
        ]);
    }

    #[test]
    fn divisions_and_modulos_simplify_by_known_divisors() {
        check(&[
            ("d0 floordiv 1", "d0"),
            ("d0 ceildiv 1", "d0"),
            ("d0 mod 1", "0"),
            ("(d0 * 4) floordiv 2", "d0 * 2"),
            ("(d0 * 4) floordiv -2", "d0 * -2"),
            ("(d0 * 4) ceildiv -2", "d0 * -2"),
            ("(d0 * 4 + d1) floordiv 4", "d0 + d1 floordiv 4"),
            ("(d1 + d0 * 4) floordiv 2", "d1 floordiv 2 + d0 * 2"),
            ("(d0 * 6 + d1 * 4) floordiv 2", "d0 * 3 + d1 * 2"),
            ("(d0 * 4 + d1) ceildiv 4", "(d0 * 4 + d1) ceildiv 4"),
            ("(d0 * 4 + d1) mod 4", "d1 mod 4"),
            ("(d0 * 6) mod 4", "(d0 * 6) mod 4"),
            ("(d0 * 6 + d1 * 4) mod 2", "0"),
            ("(d0 mod 6) mod 3", "d0 mod 3"),
            ("(d0 mod 3) mod 6", "(d0 mod 3) mod 6"),
            ("(d0 floordiv 2) floordiv 3", "(d0 floordiv 2) floordiv 3"),
            ("d0 mod -3", "d0 mod -3"),
            ("(d0 * s0) mod s0", "(d0 * s0) mod s0"),
        ]);
    }

    #[test]
    fn printing_parenthesizes_like_mlir() {
        check(&[
            ("d0 + -1", "d0 - 1"),
            ("-d0 floordiv 2", "(-d0) floordiv 2"),
            ("-(d0 floordiv 2)", "-(d0 floordiv 2)"),
            ("(d0 ceildiv 6) * -1", "-(d0 ceildiv 6)"),
            ("((d0 mod 3) ceildiv 5) * -8", "((d0 mod 3) ceildiv 5) * -8"),
            ("-(d0 + d1)", "-(d0 + d1)"),
            ("d0 - d1 * 3", "d0 - d1 * 3"),
            ("d0 - (d1 floordiv 2)", "d0 - d1 floordiv 2"),
            ("d0 - (d1 floordiv 2) * 3", "d0 - (d1 floordiv 2) * 3"),
            ("(d0 ceildiv 2) * -3 + d0", "(d0 ceildiv 2) * -3 + d0"),
            ("d0 + d1 - (d1 + d0)", "d0 + d1 - (d1 + d0)"),
        ]);
    }

    #[test]
    fn integer_sets() {
        assert_eq!(
            set_text("affine_set<(d0)[s0] : (d0 <= s0, d0 + 1 >= 0)>"),
            "(d0)[s0] : (-d0 + s0 >= 0, d0 + 1 >= 0)"
        );
        assert_eq!(set_text("affine_set<(d0) : ()>"), "(d0) : (0 == 0)");
        assert_eq!(set_text("affine_set<(d0)[s0]:(d0-s0>=0,d0*2==4)>"), "(d0)[s0] : (d0 - s0 >= 0, d0 * 2 - 4 == 0)");
    }

    #[test]
    fn identity_layouts_ignore_symbols() {
        assert_eq!(affine_map_shape("(d0)[s0] -> (d0)"), (1, true));
        assert_eq!(affine_map_shape("(d0, d1) -> (d0, d1)"), (2, true));
        assert_eq!(affine_map_shape("(d0, d1) -> (d1, d0)"), (2, false));
        assert_eq!(affine_map_shape("() -> ()"), (0, true));
    }

    #[test]
    fn diagnostics_match_mlir() {
        let cases = [
            (
                "affine_map<(d0, d1) -> (d0 * d1)>",
                "1:28: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
            ),
            (
                "affine_map<(d0, d1) -> (d0 mod (d1 + 1))>",
                "1:28: non-affine expression: right operand of mod has to be either a constant or symbolic",
            ),
            ("affine_map<(d0) : (d0 >= 0)>", "1:12: expected AffineMap, but got IntegerSet"),
            ("affine_map<(d0) -> (d0 d0)>", "1:23: expected ')' in affine map range"),
            ("affine_map<(d0) -> (   + d0)>", "1:24: missing left operand of binary operator"),
            ("affine_map<(d0) -> (d0 +   x)>", "1:25: use of undeclared identifier"),
            ("affine_map<(d0) -> (d0 * (   ))>", "1:30: no expression inside parentheses"),
            (
                "affine_set<(d0) : (d0 > 0)>",
                "1:25: expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
            ),
        ];
        for (input, expected) in cases {
            let e = error_of(input);
            assert!(e.contains(expected), "{input}: got {e}, expected {expected}");
        }
    }
}
