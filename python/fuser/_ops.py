"""The transformer ops of `FusionDefinition` (issue 23): elementwise math, comparisons and
selection, `full`, reductions, softmax, norms, attention, slicing, embedding, dropout,
cross-entropy, and the backward pass's `sdpa_grad`, `embedding_grad` and `one_hot`. Each records one fusion op through the native `_Program.generic` (result types
inferred by the op, or given where the op cannot infer them), so a bad call raises
`FuserError` at the caller's line; docs/dialects/fusion.md has each op's numeric rules.

Result sharding when none is given: ops that keep their input's shape (elementwise math,
`softmax`, the norms, `dropout`) keep their first operand's sharding; the others are
replicated over the mesh. `splits=`, `partial=`, `reduce=` set result 0's sharding; the
secondary results (the norms' statistics, `sdpa`'s `lse`) get result 0's splits on their
axes (the leading axes of result 0), never partial.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple, Union

from ._dtypes import dtype_name
from ._errors import arguments

if TYPE_CHECKING:
    from ._frontend import Tensor

_PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge")


def _dims(what: str, dims: Union[int, Sequence[int]]) -> List[int]:
    from ._frontend import _ints

    return _ints(what, [dims] if hasattr(dims, "__index__") and not isinstance(dims, bool) else dims)


def _float(what: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise TypeError(f"{what} must be a number, not {value!r}")
    return float(value)


def _stats_dtype(dtype: str) -> str:
    """The element type of the norms' statistics: f64 for f64 inputs, f32 otherwise."""
    return "f64" if dtype == "f64" else "f32"


class TransformerOps:
    """The ops of issue 23 (mixed into `FusionDefinition`)."""

    # -- elementwise math ----------------------------------------------------------------

    def _unary(self, name: str, x: "Tensor", sharding: Any, **attrs: Any) -> "Tensor":
        with arguments():
            t = self._tensor_arg(name, "x", x)
        return self._generic(name, [x], t.ndim, sharding, keeps=x, types=[(t.shape, t.dtype)], **attrs)[0]

    def exp(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise `e^x` (floats; bf16/f16 compute in f32 and round once)."""
        return self._unary("exp", x, sharding)

    def log(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise natural logarithm (`log(0) = -inf`, negative: NaN)."""
        return self._unary("log", x, sharding)

    def tanh(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise hyperbolic tangent."""
        return self._unary("tanh", x, sharding)

    def erf(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise error function."""
        return self._unary("erf", x, sharding)

    def sqrt(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise square root (negative: NaN)."""
        return self._unary("sqrt", x, sharding)

    def rsqrt(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise `1 / sqrt(x)`."""
        return self._unary("rsqrt", x, sharding)

    def sigmoid(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise logistic sigmoid `1 / (1 + e^-x)`."""
        return self._unary("sigmoid", x, sharding)

    def abs(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise `|x|` (integers too: `abs(MIN) = MIN`)."""
        return self._unary("abs", x, sharding)

    def reciprocal(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise `1 / x`."""
        return self._unary("reciprocal", x, sharding)

    def silu(self, x: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise SiLU (swish) `x * sigmoid(x)`."""
        return self._unary("silu", x, sharding)

    def gelu(self, x: "Tensor", approximate: str = "none", **sharding: Any) -> "Tensor":
        """Elementwise GELU as `torch.nn.functional.gelu`: `approximate="none"` (erf form) or
        `"tanh"`."""
        with arguments():
            if approximate not in ("none", "tanh"):
                raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
        attrs = {"approximate": "tanh"} if approximate == "tanh" else {}
        return self._unary("gelu", x, sharding, **attrs)

    def _binary(self, name: str, a: "Tensor", b: "Tensor", sharding: Any, dtype: Optional[str] = None, **attrs: Any) -> "Tensor":
        with arguments():
            ta = self._tensor_arg(name, "lhs", a)
            self._tensor_arg(name, "rhs", b)
        types = [(ta.shape, dtype or ta.dtype)]
        return self._generic(name, [a, b], ta.ndim, sharding, keeps=a, types=types, **attrs)[0]

    def maximum(self, a: "Tensor", b: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise larger of `a` and `b` (NaN propagates), as `torch.maximum`."""
        return self._binary("maximum", a, b, sharding)

    def minimum(self, a: "Tensor", b: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise smaller of `a` and `b` (NaN propagates), as `torch.minimum`."""
        return self._binary("minimum", a, b, sharding)

    def pow(self, a: "Tensor", b: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise `a ** b` on floats, as `torch.pow`."""
        return self._binary("pow", a, b, sharding)

    def compare(self, predicate: str, a: "Tensor", b: "Tensor", **sharding: Any) -> "Tensor":
        """Elementwise comparison `predicate` (`"eq"`, `"ne"`, `"lt"`, `"le"`, `"gt"`, `"ge"`) of
        `a` and `b`: an `i1` tensor (NumPy `bool` when run). Floats compare ordered (NaN: false,
        `ne` true). Also the operators `a < b`, `a <= b`, `a > b`, `a >= b`."""
        with arguments():
            if predicate not in _PREDICATES:
                raise ValueError(f"compare: predicate must be one of {', '.join(_PREDICATES)}, got {predicate!r}")
        return self._binary("compare", a, b, sharding, dtype="i1", predicate=predicate)

    def where(self, condition: "Tensor", a: "Tensor", b: "Tensor", **sharding: Any) -> "Tensor":
        """`condition ? a : b` elementwise (`condition` an `i1` tensor of their shape)."""
        with arguments():
            self._tensor_arg("where", "condition", condition)
            ta = self._tensor_arg("where", "lhs", a)
            self._tensor_arg("where", "rhs", b)
        return self._generic("where", [condition, a, b], ta.ndim, sharding, keeps=a, types=[(ta.shape, ta.dtype)])[0]

    def full(self, shape: Sequence[int], value: Union[bool, int, float], dtype: Any = "f32", **sharding: Any) -> "Tensor":
        """A tensor of global shape `shape` and element type `dtype` filled with `value` (as
        `torch.full`); it may be split (each rank fills its piece) but never partial."""
        from ._frontend import _ints

        with arguments():
            shape = _ints("full: shape", shape)
            name = dtype_name(dtype)
            if isinstance(value, bool):
                v = float(value)
            elif name.startswith("i"):
                if not (isinstance(value, int) or hasattr(value, "__index__")):
                    if not (isinstance(value, float) and value.is_integer()):
                        raise TypeError(f"full: value {value!r} is not an integer of element type {name}")
                v = float(int(value))
            else:
                v = _float("full: value", value)
        return self._generic("full", [], len(shape), sharding, types=[(shape, name)], value=(v, name))[0]

    # -- reductions -----------------------------------------------------------------------

    def _reduce(self, name: str, x: "Tensor", dims: Any, keep_dims: bool, sharding: Any, **attrs: Any) -> "Tensor":
        with arguments():
            t = self._tensor_arg(name, "x", x)
            dims = _dims(f"{name}: dims", dims)
            if not isinstance(keep_dims, bool):
                raise TypeError(f"{name}: keep_dims must be a bool, not {keep_dims!r}")
            rank = t.ndim if keep_dims else t.ndim - len(set(dims))
        return self._generic(name, [x], max(rank, 0), sharding, dims=dims, keep_dims=keep_dims, **attrs)[0]

    def max(self, x: "Tensor", dims: Union[int, Sequence[int]], keep_dims: bool = False, **sharding: Any) -> "Tensor":
        """The largest element over `dims` (`torch.amax`; NaN propagates). Over a device-split
        axis the result is a pending max, resolved by an allreduce."""
        return self._reduce("max", x, dims, keep_dims, sharding)

    def min(self, x: "Tensor", dims: Union[int, Sequence[int]], keep_dims: bool = False, **sharding: Any) -> "Tensor":
        """The smallest element over `dims` (`torch.amin`)."""
        return self._reduce("min", x, dims, keep_dims, sharding)

    def mean(self, x: "Tensor", dims: Union[int, Sequence[int]], keep_dims: bool = False, **sharding: Any) -> "Tensor":
        """The mean over `dims` (floats), as `torch.mean`."""
        return self._reduce("mean", x, dims, keep_dims, sharding)

    def var(
        self, x: "Tensor", dims: Union[int, Sequence[int]], keep_dims: bool = False, correction: int = 1, **sharding: Any
    ) -> "Tensor":
        """The variance over `dims`, `sum((x - mean)^2) / max(0, N - correction)` (`torch.var`;
        `correction=0`: the population variance)."""
        with arguments():
            if isinstance(correction, bool) or not hasattr(correction, "__index__"):
                raise TypeError(f"var: correction must be an integer, not {correction!r}")
        return self._reduce("var", x, dims, keep_dims, sharding, correction=int(correction))

    # -- softmax and norms ----------------------------------------------------------------

    def softmax(self, x: "Tensor", dims: Union[int, Sequence[int]], **sharding: Any) -> "Tensor":
        """`exp(x - max) / sum(exp(x - max))` over `dims` (`torch.softmax`; several axes act as
        one). The softmax axes are read whole (a split there is gathered)."""
        with arguments():
            t = self._tensor_arg("softmax", "x", x)
            dims = _dims("softmax: dims", dims)
        return self._generic("softmax", [x], t.ndim, sharding, keeps=x, dims=dims)[0]

    def log_softmax(self, x: "Tensor", dims: Union[int, Sequence[int]], **sharding: Any) -> "Tensor":
        """`log(softmax(x))` over `dims`, computed stably (`torch.log_softmax`)."""
        with arguments():
            t = self._tensor_arg("log_softmax", "x", x)
            dims = _dims("log_softmax: dims", dims)
        return self._generic("log_softmax", [x], t.ndim, sharding, keeps=x, dims=dims)[0]

    def _norm_dims(self, name: str, t: "Tensor", dims: Any) -> List[int]:
        if dims is None:
            return [t.ndim - 1]
        return _dims(f"{name}: dims", dims)

    def layer_norm(
        self,
        x: "Tensor",
        weight: Optional["Tensor"] = None,
        bias: Optional["Tensor"] = None,
        dims: Union[int, Sequence[int], None] = None,
        epsilon: float = 1e-5,
        stats: bool = False,
        **sharding: Any,
    ) -> Union["Tensor", Tuple["Tensor", "Tensor", "Tensor"]]:
        """torch's `layer_norm` over the trailing axes `dims` (default: the last axis):
        `(x - mean) * rstd * weight + bias`, `rstd = 1 / sqrt(var + epsilon)` (biased variance);
        `weight` and `bias` optional, shaped as the normalized axes. With `stats=True` returns
        `(y, mean, rstd)`, the statistics shaped as the leading axes (f32, f64 for f64 inputs)."""
        with arguments():
            t = self._tensor_arg("layer_norm", "x", x)
            dims = self._norm_dims("layer_norm", t, dims)
            eps = _float("layer_norm: epsilon", epsilon)
            if not (math.isfinite(eps) and eps >= 0):
                raise ValueError(f"layer_norm: epsilon must be finite and not negative, got {epsilon!r}")
            operands = [x] + [w for w in (weight, bias) if w is not None]
            seg = [1, int(weight is not None), int(bias is not None)]
        types = None
        if stats:
            lead = list(t.shape[: t.ndim - len(dims)])
            sd = _stats_dtype(t.dtype)
            types = [(list(t.shape), t.dtype), (lead, sd), (lead, sd)]
        out = self._generic(
            "layer_norm", operands, t.ndim, sharding, keeps=x, types=types, secondary=2 if stats else 0,
            dims=dims, epsilon=eps, operandSegmentSizes=seg,
        )
        return tuple(out) if stats else out[0]  # type: ignore[return-value]

    def rms_norm(
        self,
        x: "Tensor",
        weight: Optional["Tensor"] = None,
        dims: Union[int, Sequence[int], None] = None,
        epsilon: Optional[float] = None,
        stats: bool = False,
        **sharding: Any,
    ) -> Union["Tensor", Tuple["Tensor", "Tensor"]]:
        """torch's `rms_norm` over the trailing axes `dims` (default: the last axis):
        `x * rstd * weight`, `rstd = 1 / sqrt(mean(x^2) + epsilon)`; `epsilon=None` is torch's
        default (the compute type's machine epsilon). With `stats=True` returns `(y, rstd)`."""
        with arguments():
            t = self._tensor_arg("rms_norm", "x", x)
            dims = self._norm_dims("rms_norm", t, dims)
            attrs: dict = {"dims": dims}
            if epsilon is not None:
                eps = _float("rms_norm: epsilon", epsilon)
                if not (math.isfinite(eps) and eps >= 0):
                    raise ValueError(f"rms_norm: epsilon must be finite and not negative, got {epsilon!r}")
                attrs["epsilon"] = eps
            operands = [x] + ([weight] if weight is not None else [])
        types = None
        if stats:
            lead = list(t.shape[: t.ndim - len(dims)])
            types = [(list(t.shape), t.dtype), (lead, _stats_dtype(t.dtype))]
        out = self._generic("rms_norm", operands, t.ndim, sharding, keeps=x, types=types, secondary=1 if stats else 0, **attrs)
        return tuple(out) if stats else out[0]  # type: ignore[return-value]

    # -- attention ------------------------------------------------------------------------

    def sdpa(
        self,
        q: "Tensor",
        k: "Tensor",
        v: "Tensor",
        causal: bool = False,
        scale: Optional[float] = None,
        lse: bool = False,
        **sharding: Any,
    ) -> Union["Tensor", Tuple["Tensor", "Tensor"]]:
        """Scaled dot-product attention of `q [B, H, S, D]` over `k [B, Hkv, Skv, D]`, `v [B,
        Hkv, Skv, Dv]` (grouped-query when `Hkv < H`), as torch's
        `scaled_dot_product_attention(is_causal=causal, scale=scale, enable_gqa=True)`; `scale`
        defaults to `1/sqrt(D)`. With `lse=True` returns `(out, lse)`, `lse [B, H, S]` in f32."""
        with arguments():
            tq = self._tensor_arg("sdpa", "q", q)
            self._tensor_arg("sdpa", "k", k)
            tv = self._tensor_arg("sdpa", "v", v)
            if not isinstance(causal, bool):
                raise TypeError(f"sdpa: causal must be a bool, not {causal!r}")
            attrs: dict = {"causal": causal}
            if scale is not None:
                s = _float("sdpa: scale", scale)
                if not math.isfinite(s):
                    raise ValueError(f"sdpa: scale must be finite, got {scale!r}")
                attrs["scale"] = s
            if tq.ndim != 4 or tv.ndim != 4:
                raise ValueError(f"sdpa: q, k and v are [B, H, S, D] tensors, got ranks {tq.ndim} and {tv.ndim}")
        types = None
        if lse:
            out_shape = list(tq.shape[:3]) + [tv.shape[3]]
            types = [(out_shape, tq.dtype), (list(tq.shape[:3]), "f32")]
        out = self._generic("sdpa", [q, k, v], 4, sharding, types=types, secondary=1 if lse else 0, **attrs)
        return tuple(out) if lse else out[0]  # type: ignore[return-value]

    # -- slicing and lookup ---------------------------------------------------------------

    def slice(
        self, x: "Tensor", offsets: Sequence[int], sizes: Sequence[int], strides: Optional[Sequence[int]] = None, **sharding: Any
    ) -> "Tensor":
        """The window `x[offsets[i] : offsets[i] + sizes[i] * strides[i] : strides[i]]` of every
        axis (`tensor.extract_slice`; strides default to 1)."""
        from ._frontend import _ints

        with arguments():
            self._tensor_arg("slice", "x", x)
            attrs: dict = {"offsets": _ints("slice: offsets", offsets), "sizes": _ints("slice: sizes", sizes)}
            if strides is not None:
                attrs["strides"] = _ints("slice: strides", strides)
        return self._generic("slice", [x], len(attrs["sizes"]), sharding, **attrs)[0]

    def concat(self, tensors: Sequence["Tensor"], dim: int, **sharding: Any) -> "Tensor":
        """`tensors` joined along axis `dim` (`torch.cat`)."""
        with arguments():
            tensors = list(tensors)
            if not tensors:
                raise ValueError("concat: needs at least one tensor")
            t = self._tensor_arg("concat", "tensors[0]", tensors[0])
            if isinstance(dim, bool) or not hasattr(dim, "__index__"):
                raise TypeError(f"concat: dim must be an integer, not {dim!r}")
        return self._generic("concat", tensors, t.ndim, sharding, dim=int(dim))[0]

    def embedding(self, table: "Tensor", ids: "Tensor", **sharding: Any) -> "Tensor":
        """`table[ids]`: rows of `table [V, E]` gathered by the integer `ids` (any rank), giving
        `[*ids.shape, E]`; an id outside `[0, V)` gives zeros. A table split on the vocabulary
        (vocab-parallel) makes the result a pending sum (`partial=[DIDx]`)."""
        with arguments():
            self._tensor_arg("embedding", "table", table)
            ti = self._tensor_arg("embedding", "ids", ids)
        return self._generic("embedding", [table, ids], ti.ndim + 1, sharding)[0]

    def dropout(self, x: "Tensor", seed: "Tensor", offset: "Tensor", p: float, **sharding: Any) -> "Tensor":
        """`x * mask / (1 - p)`, the mask from Philox4x32-10: element `g` (global row-major
        index) takes word `g % 4` of the call at counter `offset + g // 4` with key `seed`
        (`seed`, `offset`: rank-0 i64 tensors), identical under every sharding; advance `offset`
        by `ceil(numel / 4)` (or more) for a fresh mask."""
        with arguments():
            t = self._tensor_arg("dropout", "x", x)
            p = _float("dropout: p", p)
            if not 0 <= p < 1:
                raise ValueError(f"dropout: p must be in [0, 1), got {p!r}")
        return self._generic("dropout", [x, seed, offset], t.ndim, sharding, keeps=x, p=p)[0]

    # -- the backward pass's ops -----------------------------------------------------------

    def sdpa_grad(
        self,
        q: "Tensor",
        k: "Tensor",
        v: "Tensor",
        out: "Tensor",
        lse: "Tensor",
        dout: "Tensor",
        causal: bool = False,
        scale: Optional[float] = None,
        **sharding: Any,
    ) -> Tuple["Tensor", "Tensor", "Tensor"]:
        """The gradients `(dq, dk, dv)` of `out, lse = sdpa(q, k, v, causal, scale, lse=True)` for
        the cotangent `dout` of `out` (flash-attention's backward: the scores are recomputed
        from `lse`); `dk`, `dv` of a key/value head sum over its query heads. `causal` and
        `scale` must be the forward's. Without `splits=`, `dq` keeps `q`'s batch and head splits;
        `dk` and `dv` take `dq`'s batch and head splits (a query sequence split of `dq`, context
        parallelism, leaves them pending sums, which the program then reduces)."""
        with arguments():
            tq = self._tensor_arg("sdpa_grad", "q", q)
            tk = self._tensor_arg("sdpa_grad", "k", k)
            tv = self._tensor_arg("sdpa_grad", "v", v)
            for what, t in (("out", out), ("lse", lse), ("dout", dout)):
                self._tensor_arg("sdpa_grad", what, t)
            if not isinstance(causal, bool):
                raise TypeError(f"sdpa_grad: causal must be a bool, not {causal!r}")
            attrs: dict = {"causal": causal}
            if scale is not None:
                s = _float("sdpa_grad: scale", scale)
                if not math.isfinite(s):
                    raise ValueError(f"sdpa_grad: scale must be finite, got {scale!r}")
                attrs["scale"] = s
            if tq.ndim != 4 or tk.ndim != 4 or tv.ndim != 4:
                raise ValueError(
                    f"sdpa_grad: q, k and v are [B, H, S, D] tensors, got ranks {tq.ndim}, {tk.ndim} and {tv.ndim}"
                )
            if "splits" not in sharding and "partial" not in sharding and tq.sharding is not None:
                sharding = dict(sharding, splits=[list(a) for a in tq.sharding.axes[:2]] + [[], []])
        types = [(list(t.shape), t.dtype) for t in (tq, tk, tv)]

        def kv_layout(dq: Any) -> Any:
            # dq's batch and head splits; a query-sequence split of dq leaves dk, dv partial, and
            # they are annotated whole (the decomposition sums them).
            return type(dq)([list(a) for a in dq.axes[:2]] + [[], []])

        res = self._generic(
            "sdpa_grad",
            [q, k, v, out, lse, dout],
            4,
            sharding,
            types=types,
            secondary=2,
            secondary_layout=kv_layout,
            **attrs,
        )
        return (res[0], res[1], res[2])

    def embedding_grad(self, ids: "Tensor", grad: "Tensor", num_rows: int, **sharding: Any) -> "Tensor":
        """The gradient of `embedding(table, ids)` for the cotangent `grad [*ids.shape, E]`: the
        rows of `grad` added into a zero `[num_rows, E]` table at `ids` (ids outside `[0,
        num_rows)` add nothing). Replicated unless `splits=` says otherwise: `splits=[[DIDx],
        []]` is the vocab-parallel table's layout (each rank adds its rows)."""
        with arguments():
            self._tensor_arg("embedding_grad", "ids", ids)
            self._tensor_arg("embedding_grad", "grad", grad)
            if isinstance(num_rows, bool) or not hasattr(num_rows, "__index__") or int(num_rows) < 0:
                raise TypeError(f"embedding_grad: num_rows must be a non-negative integer, not {num_rows!r}")
        return self._generic("embedding_grad", [ids, grad], 2, sharding, num_rows=int(num_rows))[0]

    def one_hot(self, labels: "Tensor", num_classes: int, dtype: Any = "f32", **sharding: Any) -> "Tensor":
        """`[*labels.shape, num_classes]` in the float `dtype`: 1 at each label's column, 0
        elsewhere (labels outside `[0, num_classes)`, negative ones included, give rows of
        zeros). Without `splits=`, the labels' splits on the leading axes and the class axis
        whole; the class axis may be split over devices (`splits=[..., [DIDx]]`)."""
        with arguments():
            tl = self._tensor_arg("one_hot", "labels", labels)
            if isinstance(num_classes, bool) or not hasattr(num_classes, "__index__") or int(num_classes) < 0:
                raise TypeError(f"one_hot: num_classes must be a non-negative integer, not {num_classes!r}")
            name = dtype_name(dtype)
            if name not in ("bf16", "f16", "f32", "f64"):
                raise ValueError(f"one_hot: dtype must be a float type, got {dtype!r}")
            if "splits" not in sharding and "partial" not in sharding and tl.sharding is not None:
                sharding = dict(sharding, splits=[list(a) for a in tl.sharding.axes] + [[]])
        types = [(list(tl.shape) + [int(num_classes)], name)]
        return self._generic("one_hot", [labels], tl.ndim + 1, sharding, types=types, num_classes=int(num_classes))[0]

    def cross_entropy(
        self, logits: "Tensor", labels: "Tensor", ignore_index: int = -100, dtype: Any = None, **sharding: Any
    ) -> "Tensor":
        """Per-row `logsumexp(logits[n]) - logits[n, labels[n]]` of `logits [N, V]` and i64
        `labels [N]` (`torch.nn.functional.cross_entropy(reduction="none")`): `[N]` in the
        logits' element type or `dtype` (e.g. an f32 loss of bf16 logits); rows whose label is
        `ignore_index` give 0. Vocab-parallel logits (split over devices on V) are never
        gathered."""
        with arguments():
            tl = self._tensor_arg("cross_entropy", "logits", logits)
            self._tensor_arg("cross_entropy", "labels", labels)
            if isinstance(ignore_index, bool) or not hasattr(ignore_index, "__index__"):
                raise TypeError(f"cross_entropy: ignore_index must be an integer, not {ignore_index!r}")
            types = [(list(tl.shape[:1]), dtype_name(dtype))] if dtype is not None else None
        attrs = {"ignore_index": int(ignore_index)} if int(ignore_index) != -100 else {}
        return self._generic("cross_entropy", [logits, labels], 1, sharding, types=types, **attrs)[0]
