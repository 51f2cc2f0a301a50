//! The type system of the builtin dialect, as data. Types are uniqued in the
//! [`Context`](crate::context::Context); a [`Type`] is a `Copy` number, so comparing two types is
//! comparing two numbers.
//!
//! Shapes use [`DYNAMIC`] for a `?` dimension. Types of unregistered dialects are
//! [`TypeKind::Opaque`]: the text after `!` kept verbatim, which round-trips exactly as mlir-opt
//! prints unregistered dialect types. Types a registered dialect declares are
//! [`TypeKind::Dialect`]: structured parameters produced by the dialect's parse hook.
//!
//! Layer: builtin data. Imports only the handles (`handles.rs`: [`Attr`] for encodings and
//! layouts; [`Type`] is re-exported from there) and the dialect parameters (`dialect_data.rs`),
//! never `attrs.rs` or higher modules.

use crate::dialect_data::DialectData;
use crate::handles::Attr;
pub use crate::handles::Type;

/// A `?` extent in a shape.
pub const DYNAMIC: i64 = i64::MIN;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

/// Every floating-point type mlir-opt-19 knows, with its keyword.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    F16,
    BF16,
    F32,
    F64,
    F80,
    F128,
    TF32,
    F8E5M2,
    F8E4M3,
    F8E4M3FN,
    F8E5M2FNUZ,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E3M4,
    F6E2M3FN,
    F6E3M2FN,
    F4E2M1FN,
    F8E8M0FNU,
}

impl FloatKind {
    pub const ALL: [FloatKind; 18] = [
        FloatKind::F16,
        FloatKind::BF16,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::F80,
        FloatKind::F128,
        FloatKind::TF32,
        FloatKind::F8E5M2,
        FloatKind::F8E4M3,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2FNUZ,
        FloatKind::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ,
        FloatKind::F8E3M4,
        FloatKind::F6E2M3FN,
        FloatKind::F6E3M2FN,
        FloatKind::F4E2M1FN,
        FloatKind::F8E8M0FNU,
    ];

    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::F80 => "f80",
            FloatKind::F128 => "f128",
            FloatKind::TF32 => "tf32",
            FloatKind::F8E5M2 => "f8E5M2",
            FloatKind::F8E4M3 => "f8E4M3",
            FloatKind::F8E4M3FN => "f8E4M3FN",
            FloatKind::F8E5M2FNUZ => "f8E5M2FNUZ",
            FloatKind::F8E4M3FNUZ => "f8E4M3FNUZ",
            FloatKind::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            FloatKind::F8E3M4 => "f8E3M4",
            FloatKind::F6E2M3FN => "f6E2M3FN",
            FloatKind::F6E3M2FN => "f6E3M2FN",
            FloatKind::F4E2M1FN => "f4E2M1FN",
            FloatKind::F8E8M0FNU => "f8E8M0FNU",
        }
    }

    /// The kind spelled `s`, among the float types MLIR 19 parses: `f8E3M4`, `f6E2M3FN`,
    /// `f6E3M2FN`, `f4E2M1FN` and `f8E8M0FNU` came with later MLIR releases, and mlir-opt-19
    /// reads them as unknown identifiers ("expected non-function type"), so they are not
    /// keywords here either (the kinds stay for code that builds them directly).
    pub fn from_keyword(s: &str) -> Option<FloatKind> {
        Self::ALL.iter().copied().filter(|k| k.in_mlir_19()).find(|k| k.keyword() == s)
    }

    /// True for the float types MLIR 19 has.
    pub fn in_mlir_19(self) -> bool {
        !matches!(
            self,
            FloatKind::F8E3M4 | FloatKind::F6E2M3FN | FloatKind::F6E3M2FN | FloatKind::F4E2M1FN | FloatKind::F8E8M0FNU
        )
    }

    /// Storage width in bits.
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 | FloatKind::TF32 => 32,
            FloatKind::F64 => 64,
            FloatKind::F80 => 80,
            FloatKind::F128 => 128,
            FloatKind::F6E2M3FN | FloatKind::F6E3M2FN => 6,
            FloatKind::F4E2M1FN => 4,
            _ => 8,
        }
    }
}

/// The structure of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    /// `i32`, `si8`, `ui64`, `i1`.
    Integer {
        width: u32,
        signedness: Signedness,
    },
    Index,
    Float(FloatKind),
    None,
    Complex(Type),
    Tuple(Vec<Type>),
    /// `(i32, f32) -> (i1)`.
    Function {
        inputs: Vec<Type>,
        results: Vec<Type>,
    },
    /// `tensor<4x?xf32, #enc>`.
    RankedTensor {
        shape: Vec<i64>,
        elem: Type,
        encoding: Option<Attr>,
    },
    UnrankedTensor {
        elem: Type,
    },
    /// `vector<4x[8]xf32>`: `scalable[i]` marks a `[n]` dimension.
    Vector {
        shape: Vec<i64>,
        scalable: Vec<bool>,
        elem: Type,
    },
    /// `memref<4x?xf32, strided<[?, 1]>, 1>`.
    MemRef {
        shape: Vec<i64>,
        elem: Type,
        layout: Option<Attr>,
        memory_space: Option<Attr>,
    },
    UnrankedMemRef {
        elem: Type,
        memory_space: Option<Attr>,
    },
    /// A type a registered dialect declares (`!test_d.pair<i32, f32>`): parsed, verified and
    /// printed by the dialect's [`TypeDef`](crate::registry::TypeDef) hooks.
    Dialect(Box<DialectData>),
    /// A type of a dialect the context does not model: `!dialect.body` where `body` is kept
    /// verbatim (e.g. `tile<128x32xbf16, "l1">`), or `!dialect<"...">` (`pretty == false`).
    Opaque {
        dialect: Box<str>,
        body: Box<str>,
        pretty: bool,
    },
}

impl TypeKind {
    /// The shape of a shaped type (tensor, vector, memref), ranked only.
    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeKind::RankedTensor { shape, .. } | TypeKind::Vector { shape, .. } | TypeKind::MemRef { shape, .. } => {
                Some(shape)
            }
            _ => None,
        }
    }

    /// The element type of a shaped or complex type.
    pub fn element_type(&self) -> Option<Type> {
        match self {
            TypeKind::RankedTensor { elem, .. }
            | TypeKind::UnrankedTensor { elem }
            | TypeKind::Vector { elem, .. }
            | TypeKind::MemRef { elem, .. }
            | TypeKind::UnrankedMemRef { elem, .. }
            | TypeKind::Complex(elem) => Some(*elem),
            _ => None,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, TypeKind::Integer { .. })
    }
    pub fn is_signless_integer(&self) -> bool {
        matches!(self, TypeKind::Integer { signedness: Signedness::Signless, .. })
    }
    pub fn is_index(&self) -> bool {
        matches!(self, TypeKind::Index)
    }
    pub fn is_float(&self) -> bool {
        matches!(self, TypeKind::Float(_))
    }
    /// Bit width of an integer or float; 64 for index (MLIR's internal storage width).
    pub fn int_or_float_width(&self) -> Option<u32> {
        match self {
            TypeKind::Integer { width, .. } => Some(*width),
            TypeKind::Index => Some(64),
            TypeKind::Float(k) => Some(k.width()),
            _ => None,
        }
    }
}
