//! The vocabulary of the builder: element types, how a tensor is split over devices and
//! streams ([`Sharding`], [`Split`], [`DeviceAxis`], [`Reduction`]), and tensor types.
//!
//! These are the facade's own types: they say what `#fusion.shard<...>` says in the text
//! format, and are translated to the dialect's attributes only when an op is built, so the
//! embedding API does not change when the dialect's internals do.

use fuser_dialects::fusion;
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::Context;
use fuser_ir::types::FloatKind;

/// The element type of a tensor.
///
/// ```
/// use fuser::builder::{ElementType, TensorType};
/// let t = TensorType::new(&[2], ElementType::BF16);
/// assert_eq!(t.element(), ElementType::BF16);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ElementType {
    /// `f64`.
    F64,
    /// `f32`.
    F32,
    /// `f16`.
    F16,
    /// `bf16`.
    BF16,
    /// `i64`.
    I64,
    /// `i32`.
    I32,
    /// `i16`.
    I16,
    /// `i8`.
    I8,
    /// `i1`.
    I1,
}

/// A property of a fusion op built by [`FunctionBuilder::op`](super::FunctionBuilder::op).
#[derive(Clone, Debug, PartialEq)]
pub enum Attribute {
    /// `7 : i64`.
    Int(i64),
    /// `0.5 : f64`.
    Float(f64),
    /// A value of an element type (`0.5 : bf16`, `3 : i32`): the value of `fusion.full`.
    Typed(f64, ElementType),
    /// `array<i64: 1, 2>`.
    Ints(Vec<i64>),
    /// `array<i32: 1, 0, 1>`: MLIR's `operandSegmentSizes` (which operands of an op with
    /// optional operands are present, as `fusion.layer_norm` has).
    I32s(Vec<i32>),
    /// A unit attribute (a keyword that is present).
    Flag,
    /// `"tanh"`.
    Str(String),
}

impl Attribute {
    /// The attribute in the given context.
    pub(crate) fn to_attr(&self, ctx: &Context) -> fuser_ir::Attr {
        use fuser_ir::attrs::{AttrKind, DenseArrayData};
        // One rounding of the f64 value to the type, to nearest even.
        let float = |v: f64, kind: FloatKind| {
            use fuser_ir::apfloat::{ApFloat, RoundingMode};
            let wide = ApFloat::from_bits(FloatKind::F64, v.to_bits() as u128).expect("f64 is an IEEE type");
            let (x, _, _) = wide.convert(kind, RoundingMode::NearestTiesToEven);
            ctx.intern_attr(AttrKind::Float { bits: x.to_bits(), ty: ctx.float_type(kind) })
        };
        match self {
            Attribute::Int(i) => ctx.int_attr(ctx.i64_type(), *i),
            Attribute::Float(f) => float(*f, FloatKind::F64),
            Attribute::Typed(v, e) => match e {
                ElementType::F64 => float(*v, FloatKind::F64),
                ElementType::F32 => float(*v, FloatKind::F32),
                ElementType::F16 => float(*v, FloatKind::F16),
                ElementType::BF16 => float(*v, FloatKind::BF16),
                _ => ctx.int_attr(e.to_type(ctx), *v as i64),
            },
            Attribute::Ints(v) => {
                ctx.intern_attr(AttrKind::DenseArray { elem: ctx.i64_type(), data: DenseArrayData::Int(v.clone()) })
            }
            Attribute::I32s(v) => ctx.intern_attr(AttrKind::DenseArray {
                elem: ctx.integer_type(32),
                data: DenseArrayData::Int(v.iter().map(|&x| x as i64).collect()),
            }),
            Attribute::Flag => ctx.unit_attr(),
            Attribute::Str(s) => ctx.string_attr(s),
        }
    }
}

impl ElementType {
    /// The element type a type of the given context is, if it is one.
    pub(crate) fn from_type(ctx: &Context, t: fuser_ir::Type) -> Option<ElementType> {
        use fuser_ir::types::TypeKind;
        Some(match ctx.type_kind(t) {
            TypeKind::Float(FloatKind::F64) => ElementType::F64,
            TypeKind::Float(FloatKind::F32) => ElementType::F32,
            TypeKind::Float(FloatKind::F16) => ElementType::F16,
            TypeKind::Float(FloatKind::BF16) => ElementType::BF16,
            TypeKind::Integer { width: 64, .. } => ElementType::I64,
            TypeKind::Integer { width: 32, .. } => ElementType::I32,
            TypeKind::Integer { width: 16, .. } => ElementType::I16,
            TypeKind::Integer { width: 8, .. } => ElementType::I8,
            TypeKind::Integer { width: 1, .. } => ElementType::I1,
            _ => return None,
        })
    }

    /// The type in the given context.
    pub(crate) fn to_type(self, ctx: &Context) -> fuser_ir::Type {
        match self {
            ElementType::F64 => ctx.float_type(FloatKind::F64),
            ElementType::F32 => ctx.float_type(FloatKind::F32),
            ElementType::F16 => ctx.float_type(FloatKind::F16),
            ElementType::BF16 => ctx.float_type(FloatKind::BF16),
            ElementType::I64 => ctx.integer_type(64),
            ElementType::I32 => ctx.integer_type(32),
            ElementType::I16 => ctx.integer_type(16),
            ElementType::I8 => ctx.integer_type(8),
            ElementType::I1 => ctx.integer_type(1),
        }
    }
}

/// A device axis of a mesh: `DIDx` is the last mesh axis, `DIDy` the one before, `DIDz` the
/// one before that.
///
/// ```
/// use fuser::builder::{DeviceAxis, Sharding, Split};
/// // Split over DIDy, pending sum over DIDx (on a 2-D mesh).
/// let s = Sharding::new("m", 1).split(0, Split::Device(DeviceAxis::DIDy)).partial(DeviceAxis::DIDx);
/// assert_eq!(s.to_string(), "#fusion.shard<@m, [[DIDy]], partial = [DIDx]>");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DeviceAxis {
    /// The last mesh axis.
    DIDx,
    /// The mesh axis before `DIDx`.
    DIDy,
    /// The mesh axis before `DIDy`.
    DIDz,
}

impl DeviceAxis {
    fn internal(self) -> fusion::DeviceAxis {
        match self {
            DeviceAxis::DIDx => fusion::DeviceAxis::X,
            DeviceAxis::DIDy => fusion::DeviceAxis::Y,
            DeviceAxis::DIDz => fusion::DeviceAxis::Z,
        }
    }
}

/// One outer split of a tensor axis.
///
/// ```
/// use fuser::builder::{DeviceAxis, Split};
/// assert_eq!(Split::DIDX, Split::Device(DeviceAxis::DIDx));
/// let chunks = Split::Stream(4);
/// assert_ne!(chunks, Split::DIDX);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Split {
    /// Over the devices of a mesh axis: each device holds the chunk at its coordinate.
    Device(DeviceAxis),
    /// In this many chunks, computed one per iteration of a host loop (each on a stream, so
    /// that communication of one chunk overlaps computation of another).
    Stream(i64),
}

impl Split {
    /// `Split::Device(DeviceAxis::DIDx)`.
    pub const DIDX: Split = Split::Device(DeviceAxis::DIDx);
    /// `Split::Device(DeviceAxis::DIDy)`.
    pub const DIDY: Split = Split::Device(DeviceAxis::DIDy);
    /// `Split::Device(DeviceAxis::DIDz)`.
    pub const DIDZ: Split = Split::Device(DeviceAxis::DIDz);

    fn internal(self) -> fusion::Split {
        match self {
            Split::Device(d) => fusion::Split::Device(d.internal()),
            Split::Stream(n) => fusion::Split::Stream(n),
        }
    }
}

/// The kind of a pending (partial) reduction.
///
/// ```
/// use fuser::builder::{DeviceAxis, Reduction, Sharding};
/// let s = Sharding::new("tp", 1).partial(DeviceAxis::DIDx).reduction(Reduction::Max);
/// assert_eq!(s.to_string(), "#fusion.shard<@tp, [[]], partial = [DIDx], reduce = max>");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Reduction {
    /// Sum (the default).
    #[default]
    Sum,
    /// Product.
    Prod,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
}

impl Reduction {
    fn internal(self) -> ReductionKind {
        match self {
            Reduction::Sum => ReductionKind::Sum,
            Reduction::Prod => ReductionKind::Prod,
            Reduction::Min => ReductionKind::Min,
            Reduction::Max => ReductionKind::Max,
        }
    }
}

/// How a tensor is laid out over a mesh: per tensor axis its outer splits (outermost first),
/// and the device axes over which it is a pending reduction. This is `#fusion.shard<...>`.
///
/// ```
/// use fuser::builder::{Sharding, Split};
///
/// // [[Stream(3)], [DIDx]] on mesh @tp, for a rank-2 tensor.
/// let s = Sharding::new("tp", 2).split(0, Split::Stream(3)).split(1, Split::DIDX);
/// assert_eq!(s.axes()[0], vec![Split::Stream(3)]);
/// assert_eq!(s.to_string(), "#fusion.shard<@tp, [[Stream(3)], [DIDx]]>");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sharding {
    mesh: String,
    axes: Vec<Vec<Split>>,
    partial: Vec<DeviceAxis>,
    reduction: Reduction,
}

impl Sharding {
    /// Replicated on every device of mesh `mesh` (its symbol name, without `@`), for a tensor
    /// of rank `rank`.
    ///
    /// ```
    /// let s = fuser::builder::Sharding::new("tp", 2);
    /// assert_eq!(s.to_string(), "#fusion.shard<@tp, [[], []]>");
    /// ```
    pub fn new(mesh: &str, rank: usize) -> Sharding {
        Sharding {
            mesh: mesh.to_string(),
            axes: vec![Vec::new(); rank],
            partial: Vec::new(),
            reduction: Reduction::Sum,
        }
    }

    /// Adds an inner split to tensor axis `axis` (after the splits it already has). An axis
    /// out of range is reported when the sharding is used.
    ///
    /// ```
    /// use fuser::builder::{Sharding, Split};
    /// let s = Sharding::new("tp", 1).split(0, Split::DIDX).split(0, Split::Stream(2));
    /// assert_eq!(s.axes()[0], vec![Split::DIDX, Split::Stream(2)]);
    /// ```
    pub fn split(mut self, axis: usize, split: Split) -> Sharding {
        if axis >= self.axes.len() {
            self.axes.resize(axis + 1, Vec::new());
        }
        self.axes[axis].push(split);
        self
    }

    /// Marks the value as a pending reduction over device axis `axis`.
    ///
    /// ```
    /// use fuser::builder::{DeviceAxis, Sharding};
    /// let s = Sharding::new("tp", 1).partial(DeviceAxis::DIDx);
    /// assert!(s.to_string().contains("partial = [DIDx]"));
    /// ```
    pub fn partial(mut self, axis: DeviceAxis) -> Sharding {
        self.partial.push(axis);
        self
    }

    /// The kind of the pending reduction (sum unless set).
    ///
    /// ```
    /// use fuser::builder::{DeviceAxis, Reduction, Sharding};
    /// let s = Sharding::new("tp", 1).partial(DeviceAxis::DIDx).reduction(Reduction::Min);
    /// assert!(s.to_string().ends_with("reduce = min>"));
    /// ```
    pub fn reduction(mut self, kind: Reduction) -> Sharding {
        self.reduction = kind;
        self
    }

    /// The mesh's symbol name.
    ///
    /// ```
    /// assert_eq!(fuser::builder::Sharding::new("tp", 1).mesh(), "tp");
    /// ```
    pub fn mesh(&self) -> &str {
        &self.mesh
    }

    /// The split lists, one per tensor axis.
    ///
    /// ```
    /// assert_eq!(fuser::builder::Sharding::new("tp", 3).axes().len(), 3);
    /// ```
    pub fn axes(&self) -> &[Vec<Split>] {
        &self.axes
    }

    /// The dialect's decoded form.
    pub(crate) fn internal(&self) -> fusion::Sharding {
        fusion::Sharding {
            mesh: self.mesh.clone(),
            axes: self.axes.iter().map(|l| l.iter().map(|s| s.internal()).collect()).collect(),
            partial: self.partial.iter().map(|d| d.internal()).collect(),
            reduce: self.reduction.internal(),
        }
    }

    /// The `#fusion.shard` attribute, or why the sharding is invalid.
    pub(crate) fn to_attr(&self, ctx: &Context) -> Result<fuser_ir::Attr, String> {
        self.internal().try_to_attr(ctx)
    }
}

impl std::fmt::Display for Sharding {
    /// The attribute's text, as the printer writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ctx = Context::new(fuser_dialects::registry());
        match self.to_attr(&ctx) {
            Ok(a) => f.write_str(&fuser_ir::printer::print_attr(&ctx, a)),
            Err(e) => write!(f, "<invalid sharding: {e}>"),
        }
    }
}

/// A ranked tensor type: static shape, element type and an optional sharding.
///
/// ```
/// use fuser::builder::{ElementType, Sharding, Split, TensorType};
///
/// let t = TensorType::new(&[64, 256], ElementType::BF16)
///     .sharded(Sharding::new("tp", 2).split(1, Split::DIDX));
/// assert_eq!(t.shape(), &[64, 256]);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TensorType {
    shape: Vec<i64>,
    element: ElementType,
    sharding: Option<Sharding>,
}

impl TensorType {
    /// An unsharded tensor type.
    ///
    /// ```
    /// use fuser::builder::{ElementType, TensorType};
    /// assert!(TensorType::new(&[4], ElementType::F32).sharding().is_none());
    /// ```
    pub fn new(shape: &[i64], element: ElementType) -> TensorType {
        TensorType { shape: shape.to_vec(), element, sharding: None }
    }

    /// The same type with this sharding as its encoding.
    ///
    /// ```
    /// use fuser::builder::{ElementType, Sharding, TensorType};
    /// let t = TensorType::new(&[4], ElementType::F32).sharded(Sharding::new("tp", 1));
    /// assert_eq!(t.sharding().map(|s| s.mesh()), Some("tp"));
    /// ```
    pub fn sharded(mut self, sharding: Sharding) -> TensorType {
        self.sharding = Some(sharding);
        self
    }

    /// The global (unsharded) shape.
    ///
    /// ```
    /// use fuser::builder::{ElementType, TensorType};
    /// assert_eq!(TensorType::new(&[4, 5], ElementType::I8).shape(), &[4, 5]);
    /// ```
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    /// The element type.
    ///
    /// ```
    /// use fuser::builder::{ElementType, TensorType};
    /// assert_eq!(TensorType::new(&[1], ElementType::I1).element(), ElementType::I1);
    /// ```
    pub fn element(&self) -> ElementType {
        self.element
    }

    /// The sharding, if any.
    ///
    /// ```
    /// use fuser::builder::{ElementType, Sharding, TensorType};
    /// let s = Sharding::new("tp", 1);
    /// assert_eq!(TensorType::new(&[2], ElementType::F16).sharded(s.clone()).sharding(), Some(&s));
    /// ```
    pub fn sharding(&self) -> Option<&Sharding> {
        self.sharding.as_ref()
    }

    /// The type in the given context, or why its sharding is invalid.
    pub(crate) fn to_type(&self, ctx: &Context) -> Result<fuser_ir::Type, String> {
        let encoding = self.sharding.as_ref().map(|s| s.to_attr(ctx)).transpose()?;
        Ok(ctx.tensor_type(self.shape.clone(), self.element.to_type(ctx), encoding))
    }
}
