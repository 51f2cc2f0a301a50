//! The graph of a fused region (`host.fused`, docs/dev/fusion.md) as the runtime evaluates and
//! compiles it: the region's body decoded once when the program is prepared into a flat list
//! of primitive nodes over one iteration domain.
//!
//! **Domain.** Every value of a region is one of four [`Kind`]s relative to the region's
//! `domain` (the shape of its full-size values), split into leading *row* axes and `inner`
//! trailing axes:
//! - `Full`: the whole domain;
//! - `Row`: the leading axes only (a reduction over the inner axes: a norm's statistics, a row
//!   max or sum);
//! - `Col`: the inner axes only (a norm's weight and bias, read the same by every row);
//! - `Scalar`: one value (a constant, a dropout seed or offset).
//!
//! An elementwise node broadcasts its `Row`, `Col` and `Scalar` arguments over its own kind
//! (`Full` when any argument is `Full`, or both `Row` and `Col` ones are present). `inner` is 0
//! in a purely elementwise region (no `Row`/`Col` value): such a region is one flat pointwise
//! loop.
//!
//! **Nodes** are primitives only: the decoder expands softmax, log_softmax, layer_norm,
//! rms_norm, mean and var into them (see `decode.rs`), so an evaluator or a code generator
//! knows six node kinds. Nodes are in topological order (arguments before their users).
//!
//! **Numerics.** Every node's result is rounded to its `dtype` (as the unfused ops round each
//! result). Nodes the decoder adds inside an expansion have the *compute type* (`f32`, or
//! `f64` when an `f64` is involved), so an expanded softmax or norm rounds once, at its end,
//! like the named kernel it replaces. A `Reduce` accumulates in the compute type. Element
//! types: floats, `i1` (comparisons and `where` conditions) and integer `Scalar` inputs (the
//! dropout seed and offset); the segmenter fuses no integer arithmetic.

use crate::dtype::DType;
use fuser_dialects::host::ElementwiseKind;
use std::fmt;

/// A node's position in [`FusedGraph::nodes`].
pub type NodeId = usize;

/// Which part of the domain a value spans (module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    Full,
    Row,
    Col,
    Scalar,
}

impl Kind {
    /// The kind of an elementwise result over arguments of these kinds.
    pub fn join(kinds: impl IntoIterator<Item = Kind>) -> Kind {
        let (mut row, mut col, mut full) = (false, false, false);
        for k in kinds {
            match k {
                Kind::Full => full = true,
                Kind::Row => row = true,
                Kind::Col => col = true,
                Kind::Scalar => {}
            }
        }
        match (full || (row && col), row, col) {
            (true, _, _) => Kind::Full,
            (false, true, _) => Kind::Row,
            (false, _, true) => Kind::Col,
            _ => Kind::Scalar,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Full => "full",
            Kind::Row => "row",
            Kind::Col => "col",
            Kind::Scalar => "scalar",
        }
    }
}

/// A reduction over the inner axes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ReduceOp {
    Sum,
    /// NaN-propagating, as `fusion.max`.
    Max,
    Min,
}

/// What a node computes.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum NodeOp {
    /// Region input `i` (read through the operand's shape and strides).
    Input(usize),
    /// A constant (kind `Scalar`), converted to the node's type.
    Const(f64),
    /// `host.elementwise`'s scalar function (`numerics::float_elementwise`) of 1 to 3
    /// arguments, broadcast to the node's kind; `Cast` converts to the node's type; the
    /// comparisons give an `i1`; `Where`'s first argument is an `i1`.
    Elementwise(ElementwiseKind),
    /// A smaller value seen as a bigger one: a `Row`, `Col` or `Scalar` value as `Full` (a
    /// `fusion.broadcast` along the inner axes; a constant that a reduction reads or a region
    /// yields), or a `Scalar` as `Row`. Element (`r`, `c`) is the argument's value at (`r`,
    /// `c`) by its own kind.
    Broadcast,
    /// A `Full` value reduced over the inner axes to a `Row` value.
    Reduce(ReduceOp),
    /// Dropout of a `Full` value: arguments `[x, seed, offset]` (`seed` and `offset` integer
    /// `Scalar` inputs); element `e` is kept when word `g mod 4` of Philox4x32-10 at
    /// `(seed, offset + floor(g / 4))`, over `2^32`, is `>= p` (`g`: the element's row-major
    /// index in the region's `global_shape`, from the region's origin:
    /// `ops::lookup::dropout_keeps`) and then scaled by `1 / (1 - p)`.
    Dropout { p: f64 },
}

/// One node.
#[derive(Clone, PartialEq, Debug)]
pub struct Node {
    pub op: NodeOp,
    pub args: Vec<NodeId>,
    pub dtype: DType,
    pub kind: Kind,
}

/// A region input.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Input {
    pub dtype: DType,
    pub kind: Kind,
}

/// A fused region (module docs).
#[derive(Clone, PartialEq, Debug)]
pub struct FusedGraph {
    /// The shape of the `Full` values.
    pub domain: Vec<usize>,
    /// How many trailing axes of the domain are inner (`Col`, reduced) axes; 0: pointwise.
    pub inner: usize,
    pub inputs: Vec<Input>,
    pub nodes: Vec<Node>,
    /// The node each output buffer receives (a `Full` or `Row` node), in operand order.
    pub outputs: Vec<NodeId>,
    /// The global shape the dropout indices refer to (empty without dropout); the origin of
    /// the local piece comes with each launch.
    pub global_shape: Vec<usize>,
}

impl FusedGraph {
    /// The shape of a value of `kind`.
    pub fn shape_of(&self, kind: Kind) -> &[usize] {
        let split = self.domain.len() - self.inner;
        match kind {
            Kind::Full => &self.domain,
            Kind::Row => &self.domain[..split],
            Kind::Col => &self.domain[split..],
            Kind::Scalar => &[],
        }
    }

    /// Rows (the product of the leading axes; the whole domain when pointwise) and the row
    /// length (the product of the inner axes; 1 when pointwise).
    pub fn rows_cols(&self) -> (usize, usize) {
        let split = self.domain.len() - self.inner;
        (self.domain[..split].iter().product(), self.domain[split..].iter().product())
    }

    /// Whether any node is a reduction.
    pub fn reduces(&self) -> bool {
        self.nodes.iter().any(|n| matches!(n.op, NodeOp::Reduce(_)))
    }

    /// Checks the invariants every evaluator relies on: topological order, argument counts and
    /// kinds, inputs in range, outputs `Full` or `Row`, shapes consistent.
    pub fn validate(&self) -> Result<(), String> {
        if self.inner > self.domain.len() {
            return Err(format!("inner {} exceeds the domain's rank {}", self.inner, self.domain.len()));
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let bad = |m: String| Err(format!("node {i} ({}): {m}", n.op_name()));
            if let Some(&a) = n.args.iter().find(|&&a| a >= i) {
                return bad(format!("argument {a} does not come before it"));
            }
            let kinds: Vec<Kind> = n.args.iter().map(|&a| self.nodes[a].kind).collect();
            let want = match n.op {
                NodeOp::Input(k) => match self.inputs.get(k) {
                    Some(inp) if n.args.is_empty() && inp.kind == n.kind && inp.dtype == n.dtype => continue,
                    _ => return bad(format!("input {k} does not match")),
                },
                NodeOp::Const(_) => (0, Kind::Scalar),
                NodeOp::Elementwise(k) => (k.arity(), Kind::join(kinds.iter().copied())),
                NodeOp::Broadcast => {
                    let ok = matches!(
                        (kinds.as_slice(), n.kind),
                        ([Kind::Row | Kind::Col | Kind::Scalar], Kind::Full) | ([Kind::Scalar], Kind::Row)
                    );
                    if !ok {
                        return bad(format!("cannot broadcast {kinds:?} to {:?}", n.kind));
                    }
                    (1, n.kind)
                }
                NodeOp::Reduce(_) => {
                    if kinds != [Kind::Full] || self.inner == 0 {
                        return bad("expects one full argument and inner axes".into());
                    }
                    (1, Kind::Row)
                }
                NodeOp::Dropout { p } => {
                    if kinds != [Kind::Full, Kind::Scalar, Kind::Scalar] || !(0.0..1.0).contains(&p) {
                        return bad("expects [full, scalar, scalar] and p in [0, 1)".into());
                    }
                    if self.global_shape.len() != self.domain.len() {
                        return bad("a dropout needs the region's global shape".into());
                    }
                    (3, Kind::Full)
                }
            };
            if n.args.len() != want.0 || n.kind != want.1 {
                return bad(format!(
                    "{} argument(s) of kinds {kinds:?} give {:?}, not {:?}",
                    n.args.len(),
                    want.1,
                    n.kind
                ));
            }
        }
        if self.inner == 0 && self.nodes.iter().any(|n| matches!(n.kind, Kind::Row | Kind::Col)) {
            return Err("a pointwise region (inner 0) has row or column values".into());
        }
        for &o in &self.outputs {
            match self.nodes.get(o).map(|n| n.kind) {
                Some(Kind::Full | Kind::Row) => {}
                _ => return Err(format!("output node {o} is not a full or row value")),
            }
        }
        Ok(())
    }
}

impl Node {
    /// The node's operation in the dump's words.
    pub fn op_name(&self) -> String {
        match self.op {
            NodeOp::Input(i) => format!("input {i}"),
            NodeOp::Const(v) => format!("const {v:e}"),
            NodeOp::Elementwise(k) => k.keyword().to_string(),
            NodeOp::Broadcast => "broadcast".into(),
            NodeOp::Reduce(r) => format!("reduce_{}", format!("{r:?}").to_lowercase()),
            NodeOp::Dropout { p } => format!("dropout p={p}"),
        }
    }
}

/// One line per node: `%3 = add %1, %2 : bf16 full`, then the outputs.
impl fmt::Display for FusedGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "domain {:?} inner {}", self.domain, self.inner)?;
        for (i, n) in self.nodes.iter().enumerate() {
            let args: Vec<String> = n.args.iter().map(|a| format!("%{a}")).collect();
            writeln!(f, "%{i} = {} {} : {} {}", n.op_name(), args.join(", "), n.dtype.name(), n.kind.name())?;
        }
        let outs: Vec<String> = self.outputs.iter().map(|a| format!("%{a}")).collect();
        write!(f, "outputs {}", outs.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(op: NodeOp, args: &[NodeId], dtype: DType, kind: Kind) -> Node {
        Node { op, args: args.to_vec(), dtype, kind }
    }

    #[test]
    fn kinds_join_by_broadcasting() {
        assert_eq!(Kind::join([Kind::Row, Kind::Scalar]), Kind::Row);
        assert_eq!(Kind::join([Kind::Row, Kind::Col]), Kind::Full);
        assert_eq!(Kind::join([Kind::Col, Kind::Full]), Kind::Full);
        assert_eq!(Kind::join([Kind::Scalar]), Kind::Scalar);
    }

    #[test]
    fn validate_checks_order_kinds_and_outputs() {
        let x = Input { dtype: DType::BF16, kind: Kind::Full };
        let mut g = FusedGraph {
            domain: vec![4, 8],
            inner: 1,
            inputs: vec![x],
            nodes: vec![
                node(NodeOp::Input(0), &[], DType::BF16, Kind::Full),
                node(NodeOp::Reduce(ReduceOp::Max), &[0], DType::F32, Kind::Row),
                node(NodeOp::Elementwise(ElementwiseKind::Sub), &[0, 1], DType::F32, Kind::Full),
            ],
            outputs: vec![2, 1],
            global_shape: vec![],
        };
        assert_eq!(g.validate(), Ok(()));
        assert_eq!(g.rows_cols(), (4, 8));
        assert_eq!(g.shape_of(Kind::Row), &[4]);
        g.nodes[2].kind = Kind::Row;
        assert!(g.validate().unwrap_err().contains("node 2"));
        g.nodes[2].kind = Kind::Full;
        g.nodes[1].args = vec![2];
        assert!(g.validate().unwrap_err().contains("does not come before"));
        g.nodes[1].args = vec![0];
        g.outputs = vec![0, 7];
        assert!(g.validate().unwrap_err().contains("output node 7"));
        let text = format!("{g}");
        assert!(text.contains("%2 = sub %0, %1 : f32 full"), "{text}");
    }
}
