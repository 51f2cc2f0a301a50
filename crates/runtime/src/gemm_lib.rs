//! Which library the cuda backend's GEMMs go through (`fuser-run --gemm`): cuBLASLt (the
//! default; bias epilogue, heuristic algorithm per problem) or cuBLAS's `cublasGemmEx`. A plain
//! option, known without the `cuda` feature so that configurations parse everywhere.

/// The GEMM library of the cuda backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GemmLib {
    /// `cublasGemmEx` (a linear's bias is a separate elementwise kernel).
    Cublas,
    /// `cublasLtMatmul` with the bias epilogue; falls back to `cublasGemmEx` for a problem
    /// the heuristic has no algorithm for.
    #[default]
    CublasLt,
}

impl GemmLib {
    /// `cublas` or `cublaslt`.
    pub fn parse(s: &str) -> Option<GemmLib> {
        match s {
            "cublas" => Some(GemmLib::Cublas),
            "cublaslt" => Some(GemmLib::CublasLt),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GemmLib::Cublas => "cublas",
            GemmLib::CublasLt => "cublaslt",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for l in [GemmLib::Cublas, GemmLib::CublasLt] {
            assert_eq!(GemmLib::parse(l.name()), Some(l));
        }
        assert_eq!(GemmLib::parse("cutlass"), None);
    }
}
