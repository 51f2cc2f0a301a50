//! The reduction kinds shared by `fusion` (pending `partial` sums in a sharding, `fusion.sum`)
//! and `comm` (allreduce, reduce, reduce_scatter): one enum with one spelling per kind.

/// How values from several ranks (or along an axis) combine.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum ReductionKind {
    #[default]
    Sum,
    Prod,
    Min,
    Max,
}

impl ReductionKind {
    pub const ALL: [ReductionKind; 4] =
        [ReductionKind::Sum, ReductionKind::Prod, ReductionKind::Min, ReductionKind::Max];

    /// The keyword in the text format: `sum`, `prod`, `min`, `max`.
    pub fn keyword(self) -> &'static str {
        match self {
            ReductionKind::Sum => "sum",
            ReductionKind::Prod => "prod",
            ReductionKind::Min => "min",
            ReductionKind::Max => "max",
        }
    }

    pub fn from_keyword(s: &str) -> Option<ReductionKind> {
        ReductionKind::ALL.into_iter().find(|k| k.keyword() == s)
    }

    /// Combines two values (the reference semantics the runtime checks against); min and max
    /// propagate NaN (`arith.minimumf`/`arith.maximumf`, `torch.minimum`/`torch.maximum`).
    pub fn combine(self, a: f64, b: f64) -> f64 {
        match self {
            ReductionKind::Sum => a + b,
            ReductionKind::Prod => a * b,
            ReductionKind::Min | ReductionKind::Max if a.is_nan() || b.is_nan() => f64::NAN,
            ReductionKind::Min => a.min(b),
            ReductionKind::Max => a.max(b),
        }
    }

    /// The value that leaves the other unchanged.
    pub fn identity(self) -> f64 {
        match self {
            ReductionKind::Sum => 0.0,
            ReductionKind::Prod => 1.0,
            ReductionKind::Min => f64::INFINITY,
            ReductionKind::Max => f64::NEG_INFINITY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_round_trip_and_combine() {
        for k in ReductionKind::ALL {
            assert_eq!(ReductionKind::from_keyword(k.keyword()), Some(k));
            assert_eq!(k.combine(k.identity(), 3.0), 3.0);
        }
        assert_eq!(ReductionKind::from_keyword("avg"), None);
        assert_eq!(ReductionKind::Max.combine(2.0, 5.0), 5.0);
        assert!(
            ReductionKind::Max.combine(f64::NAN, 5.0).is_nan() && ReductionKind::Min.combine(5.0, f64::NAN).is_nan()
        );
    }
}
