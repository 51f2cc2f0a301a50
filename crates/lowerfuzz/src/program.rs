//! The fuzzer's model of a fusion program: one `fusion.mesh`, one `func.func` whose body is a
//! straight chain of fusion tensor ops, and the values it returns. The generator builds it, the
//! shrinker edits it, and [`Program::to_mlir`] prints it as fusion-dialect text.
//!
//! The model is deliberately plain data (no IR handles): a value is an argument or the result
//! of an earlier op ([`ValueRef`]), so dropping or rewiring ops is index arithmetic. Every type
//! is stated in full, result shardings included; an op result may also be *unannotated*
//! (`sharding: None`), leaving the choice to `fusion-propagate-sharding`.

use std::fmt::Write as _;

/// Element types the generator uses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DType {
    F32,
    BF16,
    F16,
    I8,
    I32,
    I64,
    /// Never generated: the oracle re-runs an f32 check failure in f64 to tell rounding from
    /// a bug.
    F64,
    /// Never an argument: the result of `fusion.compare`, read by `fusion.where`.
    I1,
}

impl DType {
    /// The element types the generator picks from.
    pub const ALL: [DType; 6] = [DType::F32, DType::BF16, DType::F16, DType::I8, DType::I32, DType::I64];

    pub fn keyword(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::BF16 => "bf16",
            DType::F16 => "f16",
            DType::I8 => "i8",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::F64 => "f64",
            DType::I1 => "i1",
        }
    }

    pub fn is_int(self) -> bool {
        matches!(self, DType::I8 | DType::I32 | DType::I64 | DType::I1)
    }

    pub fn other(self) -> DType {
        match self {
            DType::F32 => DType::BF16,
            _ => DType::F32,
        }
    }

    /// Overflow-prone input values of this type (`Program::big_values`): magnitudes near the
    /// type's limits or whose products overflow it, halves (casts truncate), zero and -1
    /// (division), and for floats values whose f16 products overflow.
    pub fn big_values(self) -> &'static [f64] {
        match self {
            DType::I8 => &[127.0, -128.0, 100.0, -100.0, 64.0, 0.0, -1.0, 1.0, 7.0, -7.0, 2.0, 3.0],
            DType::I32 => {
                &[2147483647.0, -2147483648.0, 65536.0, 46341.0, -46341.0, 100000.0, 0.0, -1.0, 1.0, 7.0, -7.0, 2.0]
            }
            DType::I1 => &[0.0, 1.0],
            DType::I64 => &[
                9007199254740991.0,
                -9007199254740991.0,
                4294967296.0,
                -4294967296.0,
                3037000500.0,
                0.0,
                -1.0,
                1.0,
                7.0,
                -7.0,
                2.0,
            ],
            _ => &[300.0, -300.0, 2.5, -2.5, 65504.0, 1e4, -1e4, 0.5, 0.0, 1e-3, 7.0, -3.75],
        }
    }
}

/// A device axis of the mesh: `DIDx` is the last mesh axis, `DIDy` the one before.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Did {
    X,
    Y,
}

impl Did {
    pub fn keyword(self) -> &'static str {
        match self {
            Did::X => "DIDx",
            Did::Y => "DIDy",
        }
    }
}

/// One outer split of a tensor axis.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Split {
    Device(Did),
    Stream(usize),
}

/// The pending reduction of a `partial` value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Reduce {
    #[default]
    Sum,
    Prod,
    Min,
    Max,
}

impl Reduce {
    pub const ALL: [Reduce; 4] = [Reduce::Sum, Reduce::Prod, Reduce::Min, Reduce::Max];

    pub fn keyword(self) -> &'static str {
        match self {
            Reduce::Sum => "sum",
            Reduce::Prod => "prod",
            Reduce::Min => "min",
            Reduce::Max => "max",
        }
    }
}

/// A `#fusion.shard` encoding.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Shard {
    /// One split list per tensor axis, outermost first.
    pub axes: Vec<Vec<Split>>,
    pub partial: Vec<Did>,
    pub reduce: Reduce,
}

impl Shard {
    pub fn replicated(rank: usize) -> Shard {
        Shard { axes: vec![Vec::new(); rank], partial: Vec::new(), reduce: Reduce::Sum }
    }

    /// Whether some axis is split over a device axis.
    pub fn has_device_split(&self) -> bool {
        self.axes.iter().flatten().any(|s| matches!(s, Split::Device(_)))
    }

    pub fn has_stream_split(&self) -> bool {
        self.axes.iter().flatten().any(|s| matches!(s, Split::Stream(_)))
    }

    fn text(&self, mesh: &str) -> String {
        let axes: Vec<String> = self
            .axes
            .iter()
            .map(|splits| {
                let items: Vec<String> = splits
                    .iter()
                    .map(|s| match s {
                        Split::Device(d) => d.keyword().to_string(),
                        Split::Stream(n) => format!("Stream({n})"),
                    })
                    .collect();
                format!("[{}]", items.join(", "))
            })
            .collect();
        let mut t = format!("#fusion.shard<@{mesh}, [{}]", axes.join(", "));
        if !self.partial.is_empty() {
            let p: Vec<&str> = self.partial.iter().map(|d| d.keyword()).collect();
            let _ = write!(t, ", partial = [{}]", p.join(", "));
            if self.reduce != Reduce::Sum {
                let _ = write!(t, ", reduce = {}", self.reduce.keyword());
            }
        }
        t.push('>');
        t
    }
}

/// A ranked tensor type with an optional sharding.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TensorTy {
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub shard: Option<Shard>,
}

impl TensorTy {
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn text(&self, mesh: &str) -> String {
        let mut t = String::from("tensor<");
        for e in &self.shape {
            let _ = write!(t, "{e}x");
        }
        t.push_str(self.dtype.keyword());
        if let Some(s) = &self.shard {
            t.push_str(", ");
            t.push_str(&s.text(mesh));
        }
        t.push('>');
        t
    }
}

/// An SSA value of the function: argument `i` or the result of op `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum ValueRef {
    Arg(usize),
    /// Result 0 of op `i`.
    Op(usize),
    /// Result `k >= 1` of a multi-result op (`layer_norm`'s statistics, `sdpa`'s `lse`,
    /// `sdpa_grad`'s `dk` and `dv`):
    /// [`OpKind::extra`] holds their types.
    Res(usize, usize),
}

impl ValueRef {
    /// The op that defines the value, if any.
    pub fn op(self) -> Option<usize> {
        match self {
            ValueRef::Arg(_) => None,
            ValueRef::Op(i) | ValueRef::Res(i, _) => Some(i),
        }
    }

    /// The same result of op `j` instead.
    pub fn with_op(self, j: usize) -> ValueRef {
        match self {
            ValueRef::Res(_, k) => ValueRef::Res(j, k),
            _ => ValueRef::Op(j),
        }
    }
}

/// The fusion tensor ops the generator emits (every tensor op of the dialect).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OpKind {
    Matmul,
    /// `fusion.linear`, with a bias operand when it has three operands.
    Linear,
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Cast,
    Sum {
        dims: Vec<usize>,
        keep_dims: bool,
    },
    Set,
    Broadcast {
        dims: Vec<usize>,
    },
    Reshape,
    Permute {
        dims: Vec<usize>,
    },
    /// A unary op of `fusion/math.rs` (`exp`, ..., `silu`, `abs`) by mnemonic.
    Math(&'static str),
    Gelu {
        tanh: bool,
    },
    Maximum,
    Minimum,
    Pow,
    /// `fusion.compare` with this predicate (an `i1` result).
    Compare(&'static str),
    Where,
    /// `fusion.full` of this value (in the result's element type).
    Full {
        value: i8,
    },
    /// `fusion.max`/`min`/`mean`/`var` (`correction` for `var` only: `None` is absent).
    Reduce {
        name: &'static str,
        dims: Vec<usize>,
        keep_dims: bool,
        correction: Option<i64>,
    },
    /// `fusion.softmax` or `fusion.log_softmax`.
    Softmax {
        log: bool,
        dims: Vec<usize>,
    },
    /// `fusion.layer_norm` (`rms: false`) or `fusion.rms_norm`; operands input, then weight and
    /// bias when present; `stats`: the statistics results (mean and rstd, or rstd), or none.
    Norm {
        rms: bool,
        weight: bool,
        bias: bool,
        dims: Vec<usize>,
        epsilon: bool,
        stats: Vec<TensorTy>,
    },
    /// `fusion.sdpa q, k, v`; `lse`: the optional second result.
    Sdpa {
        causal: bool,
        scale: bool,
        lse: Option<TensorTy>,
    },
    Slice {
        offsets: Vec<usize>,
        sizes: Vec<usize>,
        strides: Option<Vec<usize>>,
    },
    Concat {
        dim: usize,
    },
    /// `fusion.embedding table, ids`.
    Embedding,
    /// `fusion.dropout x, seed, offset p = P` with `p = percent / 100`.
    Dropout {
        percent: u8,
    },
    /// `fusion.cross_entropy logits, labels`.
    CrossEntropy {
        ignore_index: Option<i64>,
    },
    /// `fusion.sdpa_grad q, k, v, out, lse, dout` (the result is `dq`); `grads`: the types of
    /// `dk` and `dv`, its second and third results (always two).
    SdpaGrad {
        causal: bool,
        scale: bool,
        grads: Vec<TensorTy>,
    },
    /// `fusion.embedding_grad ids, g num_rows = N`.
    EmbeddingGrad {
        num_rows: usize,
    },
    /// `fusion.one_hot labels num_classes = N` (a float result).
    OneHot {
        num_classes: usize,
    },
}

impl OpKind {
    /// The op's name without the dialect prefix.
    pub fn mnemonic(&self) -> &'static str {
        match self {
            OpKind::Matmul => "matmul",
            OpKind::Linear => "linear",
            OpKind::Add => "add",
            OpKind::Sub => "sub",
            OpKind::Mul => "mul",
            OpKind::Div => "div",
            OpKind::Neg => "neg",
            OpKind::Cast => "cast",
            OpKind::Sum { .. } => "sum",
            OpKind::Set => "set",
            OpKind::Broadcast { .. } => "broadcast",
            OpKind::Reshape => "reshape",
            OpKind::Permute { .. } => "permute",
            OpKind::Math(m) => m,
            OpKind::Gelu { .. } => "gelu",
            OpKind::Maximum => "maximum",
            OpKind::Minimum => "minimum",
            OpKind::Pow => "pow",
            OpKind::Compare(_) => "compare",
            OpKind::Where => "where",
            OpKind::Full { .. } => "full",
            OpKind::Reduce { name, .. } => name,
            OpKind::Softmax { log: false, .. } => "softmax",
            OpKind::Softmax { log: true, .. } => "log_softmax",
            OpKind::Norm { rms: false, .. } => "layer_norm",
            OpKind::Norm { rms: true, .. } => "rms_norm",
            OpKind::Sdpa { .. } => "sdpa",
            OpKind::Slice { .. } => "slice",
            OpKind::Concat { .. } => "concat",
            OpKind::Embedding => "embedding",
            OpKind::Dropout { .. } => "dropout",
            OpKind::CrossEntropy { .. } => "cross_entropy",
            OpKind::SdpaGrad { .. } => "sdpa_grad",
            OpKind::EmbeddingGrad { .. } => "embedding_grad",
            OpKind::OneHot { .. } => "one_hot",
        }
    }

    /// The types of the results after the first.
    pub fn extra(&self) -> &[TensorTy] {
        match self {
            OpKind::Norm { stats, .. } => stats,
            OpKind::Sdpa { lse: Some(t), .. } => std::slice::from_ref(t),
            OpKind::SdpaGrad { grads, .. } => grads,
            _ => &[],
        }
    }

    pub fn extra_mut(&mut self) -> &mut [TensorTy] {
        match self {
            OpKind::Norm { stats, .. } => stats,
            OpKind::Sdpa { lse: Some(t), .. } => std::slice::from_mut(t),
            OpKind::SdpaGrad { grads, .. } => grads,
            _ => &mut [],
        }
    }

    /// The unary mnemonics of [`OpKind::Math`].
    pub const MATH: [&'static str; 10] =
        ["exp", "log", "tanh", "erf", "sqrt", "rsqrt", "sigmoid", "abs", "reciprocal", "silu"];

    /// The predicates of [`OpKind::Compare`].
    pub const PREDICATES: [&'static str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

    /// Every mnemonic, for coverage tables; the transformer ops of issue 23 first (14), then
    /// the gradient ops `sdpa_grad`, `embedding_grad` and `one_hot` (3).
    pub const MNEMONICS: [&'static str; 47] = [
        "max",
        "min",
        "mean",
        "var",
        "softmax",
        "log_softmax",
        "layer_norm",
        "rms_norm",
        "sdpa",
        "slice",
        "concat",
        "embedding",
        "dropout",
        "cross_entropy",
        "sdpa_grad",
        "embedding_grad",
        "one_hot",
        "exp",
        "log",
        "tanh",
        "erf",
        "sqrt",
        "rsqrt",
        "sigmoid",
        "abs",
        "reciprocal",
        "silu",
        "gelu",
        "maximum",
        "minimum",
        "pow",
        "compare",
        "where",
        "full",
        "matmul",
        "linear",
        "add",
        "sub",
        "mul",
        "div",
        "neg",
        "cast",
        "sum",
        "set",
        "broadcast",
        "reshape",
        "permute",
    ];

    /// What the op writes before its operands (`compare`'s predicate).
    fn prefix_text(&self) -> String {
        match self {
            OpKind::Compare(p) => format!("{p} "),
            _ => String::new(),
        }
    }

    /// The operand list as written (`layer_norm`'s `weight`/`bias` keywords).
    fn operands_text(&self, names: &[String]) -> String {
        match self {
            OpKind::Norm { weight, bias, .. } => {
                let mut t = names[0].clone();
                let mut next = 1;
                if *weight {
                    let _ = write!(t, " weight {}", names[next]);
                    next += 1;
                }
                if *bias {
                    let _ = write!(t, " bias {}", names[next]);
                }
                t
            }
            _ => names.join(", "),
        }
    }

    /// What the op writes after its operands; `result` is its result's element type.
    fn extra_text(&self, result: DType) -> String {
        let list = |d: &[usize]| d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
        match self {
            OpKind::Gelu { tanh: true } => " {approximate = \"tanh\"}".into(),
            OpKind::Full { value } if result.is_int() => format!(" {{value = {value} : {}}}", result.keyword()),
            OpKind::Full { value } => format!(" {{value = {value}.0 : {}}}", result.keyword()),
            OpKind::Sum { dims, keep_dims } => {
                format!(" dims = [{}]{}", list(dims), if *keep_dims { " keep_dims" } else { "" })
            }
            OpKind::Broadcast { dims } | OpKind::Permute { dims } | OpKind::Softmax { dims, .. } => {
                format!(" dims = [{}]", list(dims))
            }
            OpKind::Reduce { dims, keep_dims, correction, .. } => {
                let mut t = format!(" dims = [{}]{}", list(dims), if *keep_dims { " keep_dims" } else { "" });
                if let Some(c) = correction {
                    let _ = write!(t, " {{correction = {c} : i64}}");
                }
                t
            }
            OpKind::Norm { dims, epsilon, .. } => {
                let eps = if *epsilon { " {epsilon = 1.000000e-03 : f64}" } else { "" };
                format!(" dims = [{}]{eps}", list(dims))
            }
            OpKind::Sdpa { causal, scale, .. } | OpKind::SdpaGrad { causal, scale, .. } => {
                format!("{}{}", if *causal { " causal" } else { "" }, if *scale { " scale = 2.500000e-01" } else { "" })
            }
            OpKind::Slice { offsets, sizes, strides } => {
                let mut t = format!(" offsets = [{}] sizes = [{}]", list(offsets), list(sizes));
                if let Some(s) = strides {
                    let _ = write!(t, " strides = [{}]", list(s));
                }
                t
            }
            OpKind::Concat { dim } => format!(" dim = {dim}"),
            OpKind::Dropout { percent } => format!(" p = {:?}", f64::from(*percent) / 100.0),
            OpKind::CrossEntropy { ignore_index: Some(i) } => format!(" {{ignore_index = {i} : i64}}"),
            OpKind::EmbeddingGrad { num_rows } => format!(" num_rows = {num_rows}"),
            OpKind::OneHot { num_classes } => format!(" num_classes = {num_classes}"),
            _ => String::new(),
        }
    }
}

/// One op of the chain.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Op {
    pub kind: OpKind,
    pub operands: Vec<ValueRef>,
    pub result: TensorTy,
}

/// A whole fuzz program.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Program {
    /// The mesh's shape, outermost axis first (`[d]` or `[dy, dx]`); devices are `0..product`.
    pub mesh: Vec<usize>,
    pub args: Vec<TensorTy>,
    pub ops: Vec<Op>,
    /// The returned values, in order.
    pub outputs: Vec<ValueRef>,
    /// Whether the inputs are overflow-prone values ([`Program::input_values`]) instead of the
    /// seeded small ones.
    pub big_values: bool,
    /// Integer arguments whose values must lie in `[0, bound)` (embedding ids, labels), as
    /// `(argument, bound)`: their input values are given ([`Program::input_values`]).
    pub bounds: Vec<(usize, i64)>,
}

/// The symbol of the program's mesh.
pub const MESH: &str = "m";
/// The name of the program's function.
pub const FUNC: &str = "fuzz";

impl Program {
    /// Checks that every operand names an argument or an *earlier* op and every output an
    /// existing value: the methods below index by [`ValueRef`] and expect this (the generator
    /// and the shrinker only build such programs).
    pub fn well_formed(&self) -> Result<(), String> {
        let exists = |v: ValueRef, before: usize| match v {
            ValueRef::Arg(i) => i < self.args.len(),
            ValueRef::Op(i) => i < before,
            ValueRef::Res(i, k) => i < before && k >= 1 && k <= self.ops[i].kind.extra().len(),
        };
        for (i, op) in self.ops.iter().enumerate() {
            if let Some(bad) = op.operands.iter().find(|&&v| !exists(v, i)) {
                return Err(format!("op #{i} reads {bad:?}, which is not defined before it"));
            }
        }
        match self.outputs.iter().find(|&&v| !exists(v, self.ops.len())) {
            Some(bad) => Err(format!("output {bad:?} does not exist")),
            None if self.outputs.is_empty() => Err("the program returns nothing".into()),
            None => Ok(()),
        }
    }

    pub fn devices(&self) -> usize {
        self.mesh.iter().product()
    }

    pub fn type_of(&self, v: ValueRef) -> &TensorTy {
        match v {
            ValueRef::Arg(i) => &self.args[i],
            ValueRef::Op(i) => &self.ops[i].result,
            ValueRef::Res(i, k) => &self.ops[i].kind.extra()[k - 1],
        }
    }

    fn value_name(v: ValueRef) -> String {
        match v {
            ValueRef::Arg(i) => format!("%a{i}"),
            ValueRef::Op(i) => format!("%v{i}"),
            ValueRef::Res(i, k) => format!("%v{i}r{k}"),
        }
    }

    fn mesh_text(&self) -> String {
        let ids = |from: usize, n: usize| (from..from + n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
        match self.mesh.as_slice() {
            [d] => format!("[{}]", ids(0, *d)),
            [rows, cols] => {
                let r: Vec<String> = (0..*rows).map(|i| format!("[{}]", ids(i * cols, *cols))).collect();
                format!("[{}]", r.join(", "))
            }
            _ => "[]".into(),
        }
    }

    /// The program as fusion-dialect text (custom form).
    pub fn to_mlir(&self) -> String {
        let ty = |t: &TensorTy| t.text(MESH);
        let mut s = format!("fusion.mesh @{MESH} = {}\n", self.mesh_text());
        let args: Vec<String> = self.args.iter().enumerate().map(|(i, t)| format!("%a{i}: {}", ty(t))).collect();
        let results: Vec<String> = self.outputs.iter().map(|&v| ty(self.type_of(v))).collect();
        let _ = writeln!(s, "func.func @{FUNC}({}) -> ({}) {{", args.join(", "), results.join(", "));
        for (i, op) in self.ops.iter().enumerate() {
            let operands: Vec<String> = op.operands.iter().map(|&v| Self::value_name(v)).collect();
            let types: Vec<String> = op.operands.iter().map(|&v| ty(self.type_of(v))).collect();
            let extra = op.kind.extra();
            let mut names = format!("%v{i}");
            let mut result_types = ty(&op.result);
            if !extra.is_empty() {
                for (k, t) in extra.iter().enumerate() {
                    let _ = write!(names, ", {}", Self::value_name(ValueRef::Res(i, k + 1)));
                    let _ = write!(result_types, ", {}", ty(t));
                }
                result_types = format!("({result_types})");
            }
            let _ = writeln!(
                s,
                "  {names} = fusion.{} {}{}{} : ({}) -> {}",
                op.kind.mnemonic(),
                op.kind.prefix_text(),
                op.kind.operands_text(&operands),
                op.kind.extra_text(op.result.dtype),
                types.join(", "),
                result_types
            );
        }
        let outs: Vec<String> = self.outputs.iter().map(|&v| Self::value_name(v)).collect();
        let _ = writeln!(s, "  return {} : {}", outs.join(", "), results.join(", "));
        s.push_str("}\n");
        s
    }

    /// The given input values of a `big_values` program (`fuser-run --input-values I=...`):
    /// per argument, a list drawn from its type's [`DType::big_values`] by `seed`, of a length
    /// that differs between arguments (the lists repeat to fill the tensors); none otherwise.
    pub fn input_values(&self, seed: u64) -> Vec<(usize, Vec<f64>)> {
        let mut rng = crate::rng::Rng::new(seed ^ 0x6e75_6d65_7269_6373);
        self.args
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let len = 5 + (i % 4) * 2;
                if let Some(&(_, bound)) = self.bounds.iter().find(|b| b.0 == i) {
                    // Mostly in range; now and then -100 (cross_entropy's default ignore_index)
                    // or one past the end (a zero row, a NaN loss: defined, not an error).
                    let vals = (0..len)
                        .map(|_| match rng.below(12) {
                            0 if self.big_values => -100.0,
                            1 if self.big_values => bound as f64,
                            _ => rng.below(bound.max(1) as usize) as f64,
                        })
                        .collect();
                    return Some((i, vals));
                }
                if !self.big_values {
                    return None;
                }
                let pool = t.dtype.big_values();
                Some((i, (0..len).map(|_| pool[rng.below(pool.len())]).collect()))
            })
            .collect()
    }

    /// The same program with every float tensor of 16 bits in `f32` (used to tell rounding
    /// noise from a wrong result).
    pub fn in_f32(&self) -> Program {
        let mut p = self.clone();
        for t in all_types(&mut p) {
            if matches!(t.dtype, DType::BF16 | DType::F16) {
                t.dtype = DType::F32;
            }
        }
        p
    }

    /// The same program with every float tensor of element type `d` (integer tensors keep
    /// their types: their semantics is exact, not a precision).
    pub fn in_dtype(&self, d: DType) -> Program {
        let mut p = self.clone();
        for t in all_types(&mut p) {
            if !t.dtype.is_int() {
                t.dtype = d;
            }
        }
        p
    }

    pub fn has_dtype(&self, d: DType) -> bool {
        self.args
            .iter()
            .chain(self.ops.iter().flat_map(|o| std::iter::once(&o.result).chain(o.kind.extra())))
            .any(|t| t.dtype == d)
    }
}

/// Every tensor type of the program: arguments and all results.
pub fn all_types(p: &mut Program) -> impl Iterator<Item = &mut TensorTy> {
    p.args.iter_mut().chain(p.ops.iter_mut().flat_map(|o| {
        let Op { kind, result, .. } = o;
        std::iter::once(result).chain(kind.extra_mut().iter_mut())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_a_small_program() {
        let x = TensorTy {
            shape: vec![4, 8],
            dtype: DType::F32,
            shard: Some(Shard {
                axes: vec![vec![Split::Stream(2), Split::Device(Did::X)], vec![]],
                partial: vec![],
                reduce: Reduce::Sum,
            }),
        };
        let mut y = x.clone();
        y.shard = Some(Shard { axes: vec![vec![], vec![]], partial: vec![Did::X], reduce: Reduce::Max });
        let p = Program {
            mesh: vec![2],
            args: vec![x.clone(), y],
            ops: vec![Op { kind: OpKind::Add, operands: vec![ValueRef::Arg(0), ValueRef::Arg(1)], result: x }],
            outputs: vec![ValueRef::Op(0)],
            big_values: false,
            bounds: Vec::new(),
        };
        let text = p.to_mlir();
        assert!(text.starts_with("fusion.mesh @m = [0, 1]\n"), "{text}");
        assert!(text.contains("#fusion.shard<@m, [[], []], partial = [DIDx], reduce = max>"), "{text}");
        assert!(
            text.contains("%v0 = fusion.add %a0, %a1 : (tensor<4x8xf32, #fusion.shard<@m, [[Stream(2), DIDx], []]>>")
        );
        assert!(text.contains("  return %v0 : tensor<4x8xf32"), "{text}");
        assert_eq!(p.well_formed(), Ok(()));
        let mut bad = p.clone();
        bad.ops[0].operands[1] = ValueRef::Op(0);
        assert!(bad.well_formed().unwrap_err().contains("op #0 reads Op(0)"));
    }

    #[test]
    fn prints_the_gradient_ops() {
        let t = |shape: &[usize], dtype| TensorTy { shape: shape.to_vec(), dtype, shard: None };
        let (q, kv) = (t(&[1, 4, 8, 4], DType::F32), t(&[1, 2, 8, 4], DType::F32));
        let p = Program {
            mesh: vec![1],
            args: vec![
                q.clone(),
                kv.clone(),
                kv.clone(),
                q.clone(),
                t(&[1, 4, 8], DType::F32),
                q.clone(),
                t(&[3], DType::I64),
            ],
            ops: vec![
                Op {
                    kind: OpKind::SdpaGrad { causal: true, scale: true, grads: vec![kv.clone(), kv.clone()] },
                    operands: (0..6).map(ValueRef::Arg).collect(),
                    result: q.clone(),
                },
                Op {
                    kind: OpKind::OneHot { num_classes: 5 },
                    operands: vec![ValueRef::Arg(6)],
                    result: t(&[3, 5], DType::BF16),
                },
                Op {
                    kind: OpKind::EmbeddingGrad { num_rows: 6 },
                    operands: vec![ValueRef::Arg(6), ValueRef::Op(1)],
                    result: t(&[6, 5], DType::BF16),
                },
            ],
            outputs: vec![ValueRef::Op(0), ValueRef::Res(0, 2), ValueRef::Op(2)],
            big_values: false,
            bounds: vec![(6, 5)],
        };
        assert_eq!(p.well_formed(), Ok(()));
        let text = p.to_mlir();
        assert!(
            text.contains(
                "%v0, %v0r1, %v0r2 = fusion.sdpa_grad %a0, %a1, %a2, %a3, %a4, %a5 causal scale = 2.500000e-01 : ("
            ) && text.contains(") -> (tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)"),
            "{text}"
        );
        assert!(
            text.contains("%v1 = fusion.one_hot %a6 num_classes = 5 : (tensor<3xi64>) -> tensor<3x5xbf16>"),
            "{text}"
        );
        assert!(
            text.contains("%v2 = fusion.embedding_grad %a6, %v1 num_rows = 6 : (tensor<3xi64>, tensor<3x5xbf16>) -> tensor<6x5xbf16>"),
            "{text}"
        );
        assert!(text.contains("return %v0, %v0r2, %v2 :"), "{text}");
    }
}
