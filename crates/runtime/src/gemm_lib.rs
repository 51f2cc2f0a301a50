//! Which library the cuda backend's GEMMs go through (`fuser-run --gemm`): cuBLASLt (bias
//! epilogue, heuristic algorithm per problem), cuBLAS's `cublasGemmEx`, or `auto` (the
//! default): cuBLASLt where a linear's bias fuses into its epilogue, `cublasGemmEx` otherwise.
//! Measured on an H200 (benches/results/h200-graph-gemm.md): the fused bias is 2-4.4x faster
//! than GEMM + add, while plain GEMMs through cuBLASLt's first heuristic choice were up to 5 %
//! slower than `cublasGemmEx` on some shapes. A plain option, known without the `cuda`
//! feature so that configurations parse everywhere.

/// The GEMM library of the cuda backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GemmLib {
    /// cuBLASLt for GEMMs with a fusable bias, `cublasGemmEx` for the others.
    #[default]
    Auto,
    /// `cublasGemmEx` (a linear's bias is a separate elementwise kernel).
    Cublas,
    /// `cublasLtMatmul` (with the bias epilogue where it fits); falls back to `cublasGemmEx`
    /// for a problem the heuristic has no algorithm for.
    CublasLt,
}

impl GemmLib {
    /// `auto`, `cublas` or `cublaslt`.
    pub fn parse(s: &str) -> Option<GemmLib> {
        match s {
            "auto" => Some(GemmLib::Auto),
            "cublas" => Some(GemmLib::Cublas),
            "cublaslt" => Some(GemmLib::CublasLt),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GemmLib::Auto => "auto",
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
        for l in [GemmLib::Auto, GemmLib::Cublas, GemmLib::CublasLt] {
            assert_eq!(GemmLib::parse(l.name()), Some(l));
        }
        assert_eq!(GemmLib::parse("cutlass"), None);
    }
}
