"""Importing torch modules: `torch.export` captures the module as an ATen graph, and one table
(`ATEN_OPS`) maps each ATen op overload to fusion ops, so a torch `nn.Module` becomes a
`FusionDefinition` without rewriting it (issue 26, first slice: single process, replicated).

```python
import torch, fuser.torch
program = fuser.torch.compile(module, (x,))      # an ImportedModule
(y,) = program(x)                               # runs on the cpu backend, torch tensors out
(y,) = program.forward(x)                       # the same as a torch.autograd.Function
program.fd.mlir()                               # the fusion program
```

Inputs of the program, in order: the module's parameters and buffers (named by their fully
qualified names, `program.input_names`), the lifted tensor constants, then the user inputs of
`forward`. Every op carries the user's source line (from the export's stack traces), so the
compiler's diagnostics point into the module's `forward`. An ATen op the table does not list,
or an argument form a rule cannot translate (an attention mask, training-mode dropout, ...),
raises `fuser.FuserValueError` naming the op, its schema and the user's file and line: never a
fallback to torch. docs/pytorch.md lists the table.
"""

from __future__ import annotations

import operator
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from ._dtypes import dtype_name
from ._errors import argument_error, arguments
from ._execute import DEFAULT_PIPELINE
from ._frontend import FusionDefinition, Tensor
from ._location import Loc, caller_location
from ._sharding import Mesh

_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__))
_FUSER_DIR = os.path.dirname(os.path.abspath(__file__))
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>\S+)')


class _Unsupported(Exception):
    """Raised by a rule: the op's arguments take a form the rule does not translate."""


# -- locations --------------------------------------------------------------------------------


def _user_frame(node: Any) -> Optional[Loc]:
    """The innermost frame of `node`'s stack trace outside torch and fuser (the user's
    `forward` line), as (file, line, column of the line's first character)."""
    trace = node.meta.get("stack_trace") or ""
    frames = [(m.group("file"), int(m.group("line"))) for m in _FRAME.finditer(trace)]
    for file, line in reversed(frames):
        path = os.path.abspath(file)
        if path.startswith(_TORCH_DIR + os.sep) or path.startswith(_FUSER_DIR + os.sep):
            continue
        column = 1
        try:
            import linecache

            text = linecache.getline(file, line)
            if text.strip():
                column = len(text) - len(text.lstrip()) + 1
        except Exception:
            pass
        return (file, line, column)
    return None


def _module_path(node: Any) -> str:
    """The submodule (fully qualified name and class) that emitted `node`, if known."""
    stack = node.meta.get("nn_module_stack") or {}
    if not stack:
        return ""
    fqn, cls = list(stack.values())[-1]
    name = getattr(cls, "__name__", None) or str(cls).rsplit(".", 1)[-1].rstrip("'>")
    return f"{fqn} ({name})" if fqn else f"{name} (the root module)"


class _ImportDefinition(FusionDefinition):
    """A `FusionDefinition` whose ops carry the location of the ATen node being translated
    (the user's torch source line) instead of the importer's caller."""

    _here: Optional[Loc] = None
    #: (result rank, sharding keywords) the ops of the node being translated get when they are
    #: given no sharding and produce a result of that rank (a placement the plan fixes).
    _node_sharding: Optional[Tuple[int, Dict[str, Any]]] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The resharding `set`s made for the plan's conversions, by (value, steps).
        self._conversions: Dict[Tuple[Any, ...], Tensor] = {}

    def _op(self, name, operands, rank, sharding, keeps=None, **attrs):  # type: ignore[override]
        if not sharding and self._node_sharding is not None and rank == self._node_sharding[0]:
            sharding = dict(self._node_sharding[1])
        return super()._op(name, operands, rank, sharding, keeps, **attrs)

    def _generic(self, name, operands, rank, sharding, keeps=None, **kw):  # type: ignore[override]
        if not sharding and self._node_sharding is not None and rank == self._node_sharding[0]:
            sharding = dict(self._node_sharding[1])
        return super()._generic(name, operands, rank, sharding, keeps, **kw)

    def _loc(self) -> Tuple[str, int, int]:
        if self._here is None:
            return super()._loc()
        if hasattr(self, "_program"):
            self._register(self._here)
        return self._here


# -- helpers for the rules --------------------------------------------------------------------


def _val(node: Any) -> Any:
    return node.meta.get("val")


def _shape(node: Any) -> List[int]:
    v = _val(node)
    return [int(s) for s in v.shape]


def _dtype(node: Any) -> str:
    return _fuser_dtype(_val(node).dtype)


def _fuser_dtype(dtype: Any) -> str:
    try:
        return dtype_name(dtype)
    except Exception:
        raise _Unsupported(f"element type {dtype} has no fuser counterpart") from None


def _dim(d: int, rank: int) -> int:
    return d + rank if d < 0 else d


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _cast(fd: FusionDefinition, t: Tensor, dtype: str) -> Tensor:
    return t if t.dtype == dtype else fd.cast(t, dtype)


def _broadcast_to(fd: FusionDefinition, t: Tensor, shape: Sequence[int]) -> Tensor:
    """`t` broadcast to `shape` as torch broadcasts (trailing axes aligned; extent-1 axes and
    missing leading axes expand)."""
    shape = [int(s) for s in shape]
    src = list(t.shape)
    if src == shape:
        return t
    lead = len(shape) - len(src)
    if lead < 0:
        raise _Unsupported(f"cannot broadcast a tensor of shape {src} to {shape}")
    keep = []
    for i, s in enumerate(src):
        if s == shape[lead + i]:
            keep.append(i)
        elif s != 1:
            raise _Unsupported(f"cannot broadcast a tensor of shape {src} to {shape}")
    if len(keep) != len(src):
        t = fd.reshape(t, [src[i] for i in keep])
    kept = {lead + i for i in keep}
    new_axes = [(j, shape[j]) for j in range(len(shape)) if j not in kept]
    return fd.broadcast(t, new_axes) if new_axes else t


def _operand(fd: FusionDefinition, x: Any, shape: Sequence[int], dtype: str) -> Tensor:
    """A tensor operand or a Python scalar as a tensor of `shape` and `dtype`."""
    if _is_tensor(x):
        return _broadcast_to(fd, _cast(fd, x, dtype), shape)
    if isinstance(x, (bool, int, float)):
        return fd.full(list(shape), x, dtype)
    raise _Unsupported(f"operand {x!r} is neither a tensor nor a number")


def _probe(x: Any) -> Any:
    """A stand-in for torch's type promotion: a tensor of `x`'s rank class and dtype, or `x`."""
    if _is_tensor(x):
        dt = getattr(torch, {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
                             "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "i1": "bool"}[x.dtype])
        return torch.empty((1,) * x.ndim if x.ndim else (), dtype=dt)
    return x


def _promoted(a: Any, b: Any) -> str:
    return _fuser_dtype(torch.result_type(_probe(a), _probe(b)))


def _reduce_dims(x: Tensor, dims: Any) -> List[int]:
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(x.ndim))
    if isinstance(dims, int):
        dims = [dims]
    return [_dim(int(d), x.ndim) for d in dims]


def _reshape_to(fd: FusionDefinition, t: Tensor, shape: Sequence[int]) -> Tensor:
    return t if list(t.shape) == list(shape) else fd.reshape(t, list(shape))


# -- the table --------------------------------------------------------------------------------

#: Rule: (fd, node, bound arguments by schema name) -> a Tensor, a tuple of them, or None.
Rule = Callable[[FusionDefinition, Any, Dict[str, Any]], Any]

#: Every ATen op overload the importer translates (`str(node.target)`) and its rule.
ATEN_OPS: Dict[str, Rule] = {}


def _rule(*names: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        for name in names:
            ATEN_OPS[name] = fn
        return fn

    return register


def _unary_rule(aten: str, method: str) -> None:
    ATEN_OPS[aten] = lambda fd, node, a: getattr(fd, method)(_cast(fd, a["self"], _dtype(node)))


for _aten, _method in [
    ("exp", "exp"), ("log", "log"), ("tanh", "tanh"), ("erf", "erf"), ("sqrt", "sqrt"),
    ("rsqrt", "rsqrt"), ("sigmoid", "sigmoid"), ("abs", "abs"), ("reciprocal", "reciprocal"),
    ("silu", "silu"), ("neg", "neg"),
]:
    _unary_rule(f"aten.{_aten}.default", _method)


@_rule("aten.relu.default")
def _relu(fd, node, a):
    x = a["self"]
    return fd.maximum(x, fd.full(list(x.shape), 0, x.dtype))


@_rule("aten.gelu.default")
def _gelu(fd, node, a):
    return fd.gelu(a["self"], approximate=a["approximate"])


def _binary(method: str, fd: FusionDefinition, node: Any, lhs: Any, rhs: Any) -> Tensor:
    shape, dtype = _shape(node), _dtype(node)
    return getattr(fd, method)(_operand(fd, lhs, shape, dtype), _operand(fd, rhs, shape, dtype))


def _scaled(fd: FusionDefinition, node: Any, x: Any, alpha: Any) -> Any:
    if alpha is None or alpha == 1:
        return x
    if not _is_tensor(x):
        return x * alpha
    shape, dtype = list(x.shape), _dtype(node)
    return fd.mul(_cast(fd, x, dtype), fd.full(shape, alpha, dtype))


@_rule("aten.add.Tensor", "aten.add.Scalar")
def _add(fd, node, a):
    return _binary("add", fd, node, a["self"], _scaled(fd, node, a["other"], a.get("alpha")))


@_rule("aten.sub.Tensor", "aten.sub.Scalar")
def _sub(fd, node, a):
    return _binary("sub", fd, node, a["self"], _scaled(fd, node, a["other"], a.get("alpha")))


@_rule("aten.rsub.Scalar", "aten.rsub.Tensor")
def _rsub(fd, node, a):
    return _binary("sub", fd, node, a["other"], _scaled(fd, node, a["self"], a.get("alpha")))


@_rule("aten.mul.Tensor", "aten.mul.Scalar")
def _mul(fd, node, a):
    return _binary("mul", fd, node, a["self"], a["other"])


@_rule("aten.div.Tensor", "aten.div.Scalar")
def _div(fd, node, a):
    return _binary("div", fd, node, a["self"], a["other"])


@_rule("aten.maximum.default")
def _maximum(fd, node, a):
    return _binary("maximum", fd, node, a["self"], a["other"])


@_rule("aten.minimum.default")
def _minimum(fd, node, a):
    return _binary("minimum", fd, node, a["self"], a["other"])


@_rule("aten.clamp.default", "aten.clamp.Tensor", "aten.clamp_min.default", "aten.clamp_max.default")
def _clamp(fd, node, a):
    shape, dtype = _shape(node), _dtype(node)
    y = _operand(fd, a["self"], shape, dtype)
    if a.get("min") is not None:
        y = fd.maximum(y, _operand(fd, a["min"], shape, dtype))
    if a.get("max") is not None:
        y = fd.minimum(y, _operand(fd, a["max"], shape, dtype))
    return y


@_rule("aten.pow.Tensor_Scalar", "aten.pow.Tensor_Tensor")
def _pow(fd, node, a):
    if _dtype(node) not in ("f64", "f32", "f16", "bf16"):
        raise _Unsupported("pow of integers")
    return _binary("pow", fd, node, a["self"], a["exponent"])


_PREDICATE = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}
for _p in _PREDICATE:

    def _compare(fd, node, a, _p=_p):
        lhs, rhs = a["self"], a["other"]
        shape, dtype = _shape(node), _promoted(lhs, rhs)
        return fd.compare(_p, _operand(fd, lhs, shape, dtype), _operand(fd, rhs, shape, dtype))

    ATEN_OPS[f"aten.{_p}.Tensor"] = _compare
    ATEN_OPS[f"aten.{_p}.Scalar"] = _compare


@_rule("aten.where.self", "aten.where.ScalarSelf", "aten.where.ScalarOther", "aten.where.Scalar")
def _where(fd, node, a):
    shape, dtype = _shape(node), _dtype(node)
    cond = _broadcast_to(fd, _cast(fd, a["condition"], "i1"), shape)
    return fd.where(cond, _operand(fd, a["self"], shape, dtype), _operand(fd, a["other"], shape, dtype))


@_rule("aten.masked_fill.Scalar", "aten.masked_fill.Tensor")
def _masked_fill(fd, node, a):
    shape, dtype = _shape(node), _dtype(node)
    value = a["value"]
    if _is_tensor(value) and value.ndim != 0:
        raise _Unsupported("masked_fill with a value tensor of rank > 0")
    cond = _broadcast_to(fd, _cast(fd, a["mask"], "i1"), shape)
    return fd.where(cond, _operand(fd, value, shape, dtype), _operand(fd, a["self"], shape, dtype))


# -- matrix products --------------------------------------------------------------------------


@_rule("aten.linear.default")
def _linear(fd, node, a):
    return fd.linear(a["input"], a["weight"], a.get("bias"))


def _matmul(fd: FusionDefinition, node: Any, x: Tensor, w: Tensor) -> Tensor:
    if x.ndim < 2 or w.ndim < 2:
        raise _Unsupported("matrix products of vectors (rank-1 operands)")
    if w.ndim > 2 and list(w.shape[:-2]) != list(x.shape[:-2]):
        batch = _shape(node)[:-2]
        x = _broadcast_to(fd, x, batch + list(x.shape[-2:]))
        w = _broadcast_to(fd, w, batch + list(w.shape[-2:]))
    if w.ndim > x.ndim:
        raise _Unsupported("a matrix product whose second operand has more batch axes")
    return fd.matmul(x, w)


@_rule("aten.mm.default", "aten.bmm.default")
def _mm(fd, node, a):
    return _matmul(fd, node, a["self"], a["mat2"])


@_rule("aten.matmul.default")
def _matmul_rule(fd, node, a):
    return _matmul(fd, node, a["self"], a["other"])


@_rule("aten.addmm.default")
def _addmm(fd, node, a):
    if a.get("beta", 1) != 1 or a.get("alpha", 1) != 1:
        raise _Unsupported("addmm with beta or alpha other than 1")
    y = fd.matmul(a["mat1"], a["mat2"])
    return fd.add(y, _broadcast_to(fd, _cast(fd, a["self"], y.dtype), y.shape))


# -- shapes and views -------------------------------------------------------------------------


@_rule(
    "aten.view.default", "aten.reshape.default", "aten._unsafe_view.default", "aten.unsqueeze.default",
    "aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default", "aten.flatten.using_ints",
    "aten.unflatten.int",
)
def _view(fd, node, a):
    return _reshape_to(fd, a["self"], _shape(node))


@_rule("aten.permute.default")
def _permute(fd, node, a):
    x = a["self"]
    return fd.permute(x, [_dim(int(d), x.ndim) for d in a["dims"]])


@_rule("aten.transpose.int")
def _transpose(fd, node, a):
    x = a["self"]
    d0, d1 = _dim(a["dim0"], x.ndim), _dim(a["dim1"], x.ndim)
    if d0 == d1:
        return x
    dims = list(range(x.ndim))
    dims[d0], dims[d1] = dims[d1], dims[d0]
    return fd.permute(x, dims)


@_rule("aten.t.default")
def _t(fd, node, a):
    x = a["self"]
    return fd.permute(x, [1, 0]) if x.ndim == 2 else x


@_rule("aten.expand.default")
def _expand(fd, node, a):
    return _broadcast_to(fd, a["self"], _shape(node))


@_rule("aten.repeat_interleave.self_int")
def _repeat_interleave(fd, node, a):
    x, repeats, dim = a["self"], a["repeats"], a.get("dim")
    if dim is None:
        raise _Unsupported("repeat_interleave without dim (flattening)")
    d = _dim(int(dim), x.ndim)
    y = fd.broadcast(x, [(d + 1, int(repeats))])
    return fd.reshape(y, _shape(node))


@_rule(
    "aten.clone.default", "aten.contiguous.default", "aten.detach.default", "aten.alias.default",
    "aten.lift_fresh_copy.default", "aten.detach_.default",
)
def _identity(fd, node, a):
    return a["self"]


@_rule("aten._to_copy.default", "aten.to.dtype", "aten.to.dtype_layout", "aten.to.device", "aten.type_as.default")
def _to(fd, node, a):
    return _cast(fd, a["self"], _dtype(node))


@_rule("aten._assert_tensor_metadata.default")
def _no_op(fd, node, a):
    return None


@_rule("aten.dropout.default")
def _dropout(fd, node, a):
    if a["train"] and a["p"] != 0:
        raise _Unsupported(
            "dropout in training mode (fuser's dropout draws its own Philox mask, not torch's): "
            "call module.eval() before importing"
        )
    return a["input"]


@_rule("aten.slice.Tensor")
def _slice(fd, node, a):
    x = a["self"]
    d = _dim(int(a.get("dim", 0)), x.ndim)
    start, _, step = slice(a.get("start"), a.get("end"), a.get("step", 1)).indices(x.shape[d])
    sizes = _shape(node)
    if sizes == list(x.shape):
        return x
    offsets = [0] * x.ndim
    offsets[d] = start
    strides = [1] * x.ndim
    strides[d] = step
    return fd.slice(x, offsets, sizes, strides if step != 1 else None)


@_rule("aten.select.int")
def _select(fd, node, a):
    x = a["self"]
    d = _dim(int(a["dim"]), x.ndim)
    index = int(a["index"])
    index = index + x.shape[d] if index < 0 else index
    offsets = [0] * x.ndim
    offsets[d] = index
    sizes = list(x.shape)
    sizes[d] = 1
    return fd.reshape(fd.slice(x, offsets, sizes), _shape(node))


def _pieces(fd: FusionDefinition, node: Any, x: Tensor, dim: int) -> Tuple[Tensor, ...]:
    d = _dim(int(dim), x.ndim)
    out, offset = [], 0
    for v in _val(node):
        sizes = [int(s) for s in v.shape]
        offsets = [0] * x.ndim
        offsets[d] = offset
        out.append(x if sizes == list(x.shape) else fd.slice(x, offsets, sizes))
        offset += sizes[d]
    return tuple(out)


@_rule("aten.split.Tensor", "aten.split_with_sizes.default", "aten.chunk.default")
def _split(fd, node, a):
    return _pieces(fd, node, a["self"], a.get("dim", 0))


@_rule("aten.unbind.int")
def _unbind(fd, node, a):
    x = a["self"]
    d = _dim(int(a.get("dim", 0)), x.ndim)
    pieces = []
    for i, v in enumerate(_val(node)):
        offsets = [0] * x.ndim
        offsets[d] = i
        sizes = list(x.shape)
        sizes[d] = 1
        pieces.append(fd.reshape(fd.slice(x, offsets, sizes), [int(s) for s in v.shape]))
    return tuple(pieces)


@_rule("aten.cat.default")
def _cat(fd, node, a):
    dtype = _dtype(node)
    tensors = [_cast(fd, t, dtype) for t in a["tensors"] if not (t.ndim == 1 and t.shape[0] == 0)]
    if len(tensors) == 1:
        return tensors[0]
    return fd.concat(tensors, _dim(int(a.get("dim", 0)), len(_shape(node))))


# -- creation ---------------------------------------------------------------------------------


@_rule("aten.full.default", "aten.full_like.default")
def _full(fd, node, a):
    return fd.full(_shape(node), a["fill_value"], _dtype(node))


@_rule("aten.zeros.default", "aten.zeros_like.default")
def _zeros(fd, node, a):
    return fd.full(_shape(node), 0, _dtype(node))


@_rule("aten.ones.default", "aten.ones_like.default")
def _ones(fd, node, a):
    return fd.full(_shape(node), 1, _dtype(node))


@_rule("aten.scalar_tensor.default")
def _scalar_tensor(fd, node, a):
    return fd.full([], a["s"], _dtype(node))


# -- reductions, softmax, norms ---------------------------------------------------------------


def _reduction(method: str) -> Rule:
    def rule(fd, node, a):
        x = a["self"]
        if a.get("dtype") is not None:
            x = _cast(fd, x, _fuser_dtype(a["dtype"]))
        elif method in ("sum", "mean"):
            x = _cast(fd, x, _dtype(node))  # torch sums booleans as i64
        dims = _reduce_dims(x, a.get("dim"))
        return getattr(fd, method)(x, dims, keep_dims=bool(a.get("keepdim", False)))

    return rule


ATEN_OPS["aten.mean.dim"] = _reduction("mean")
ATEN_OPS["aten.mean.default"] = _reduction("mean")
ATEN_OPS["aten.sum.dim_IntList"] = _reduction("sum")
ATEN_OPS["aten.sum.default"] = _reduction("sum")
ATEN_OPS["aten.amax.default"] = _reduction("max")
ATEN_OPS["aten.amin.default"] = _reduction("min")


@_rule("aten.var.correction", "aten.var.dim")
def _var(fd, node, a):
    x = a["self"]
    if "unbiased" in a:
        correction = 1 if a["unbiased"] else 0
    else:
        correction = a.get("correction")
        correction = 1 if correction is None else correction
    if int(correction) != correction:
        raise _Unsupported("a fractional variance correction")
    return fd.var(x, _reduce_dims(x, a.get("dim")), keep_dims=bool(a.get("keepdim", False)), correction=int(correction))


@_rule("aten.softmax.int", "aten._softmax.default")
def _softmax(fd, node, a):
    x = _cast(fd, a["self"], _dtype(node))
    return fd.softmax(x, [_dim(int(a["dim"]), x.ndim)])


@_rule("aten.log_softmax.int", "aten._log_softmax.default")
def _log_softmax(fd, node, a):
    x = _cast(fd, a["self"], _dtype(node))
    return fd.log_softmax(x, [_dim(int(a["dim"]), x.ndim)])


def _trailing(x: Tensor, normalized_shape: Sequence[int]) -> List[int]:
    n = len(normalized_shape)
    if list(x.shape[x.ndim - n:]) != [int(s) for s in normalized_shape]:
        raise _Unsupported(f"normalized_shape {list(normalized_shape)} is not the trailing shape of {list(x.shape)}")
    return list(range(x.ndim - n, x.ndim))


@_rule("aten.layer_norm.default")
def _layer_norm(fd, node, a):
    x = a["input"]
    return fd.layer_norm(x, a.get("weight"), a.get("bias"), dims=_trailing(x, a["normalized_shape"]), epsilon=a["eps"])


@_rule("aten.native_layer_norm.default")
def _native_layer_norm(fd, node, a):
    x = a["input"]
    y, mean, rstd = fd.layer_norm(
        x, a.get("weight"), a.get("bias"), dims=_trailing(x, a["normalized_shape"]), epsilon=a["eps"], stats=True
    )
    shapes = [[int(s) for s in v.shape] for v in _val(node)]
    return (y, _reshape_to(fd, mean, shapes[1]), _reshape_to(fd, rstd, shapes[2]))


@_rule("aten.rms_norm.default")
def _rms_norm(fd, node, a):
    x = a["input"]
    return fd.rms_norm(x, a.get("weight"), dims=_trailing(x, a["normalized_shape"]), epsilon=a.get("eps"))


# -- attention --------------------------------------------------------------------------------


def _sdpa_args(a: Dict[str, Any]) -> Dict[str, Any]:
    if a.get("attn_mask") is not None:
        raise _Unsupported("an attention mask (attn_mask): use is_causal=True, the only mask fusion.sdpa has")
    if a.get("dropout_p", 0.0) != 0.0:
        raise _Unsupported("attention dropout (dropout_p > 0)")
    return {"causal": bool(a.get("is_causal", False)), "scale": a.get("scale")}


@_rule("aten.scaled_dot_product_attention.default")
def _sdpa(fd, node, a):
    return fd.sdpa(a["query"], a["key"], a["value"], **_sdpa_args(a))


@_rule("aten._scaled_dot_product_flash_attention_for_cpu.default")
def _sdpa_cpu(fd, node, a):
    out, lse = fd.sdpa(a["query"], a["key"], a["value"], lse=True, **_sdpa_args(a))
    shapes = [[int(s) for s in v.shape] for v in _val(node)]
    lse = _cast(fd, _reshape_to(fd, lse, shapes[1]), _fuser_dtype(_val(node)[1].dtype))
    return (out, lse)


# -- embedding and losses ---------------------------------------------------------------------


@_rule("aten.gather.default")
def _gather(fd, node, a):
    x, index = a["self"], a["index"]
    d = _dim(int(a["dim"]), x.ndim)
    if d != x.ndim - 1 or index.ndim != x.ndim or index.shape[d] != 1 or list(index.shape[:d]) != list(x.shape[:d]):
        raise _Unsupported("gather other than picking one element per row of the last axis (index [..., 1])")
    if x.dtype not in ("f64", "f32", "f16", "bf16"):
        raise _Unsupported("gather of integers")
    ids = fd.reshape(index, list(index.shape[:d]))
    picked = fd.mul(x, fd.one_hot(ids, x.shape[d], x.dtype))
    return fd.sum(picked, [d], keep_dims=True)



@_rule("aten.embedding.default")
def _embedding(fd, node, a):
    # padding_idx and scale_grad_by_freq change the gradient only.
    return fd.embedding(a["weight"], a["indices"])


_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _reduce_loss(fd: FusionDefinition, losses: Tensor, kept: Tensor, reduction: int) -> Tuple[Tensor, Tensor]:
    """The per-row `losses` reduced as torch's `reduction` (0 none, 1 mean over the kept rows,
    2 sum), and the number of kept rows (nll_loss's total_weight)."""
    count = fd.sum(kept, [0])
    if reduction == 0:
        return losses, count
    total = fd.sum(losses, [0])
    return (fd.div(total, count) if reduction == 1 else total), count


def _labels_kept(fd: FusionDefinition, labels: Tensor, ignore_index: int, dtype: str) -> Tensor:
    ignore = fd.full(list(labels.shape), ignore_index, labels.dtype)
    return fd.cast(fd.compare("ne", labels, ignore), dtype)


def _loss_args(a: Dict[str, Any], logits: Tensor, labels: Tensor) -> Tuple[int, int]:
    if a.get("weight") is not None:
        raise _Unsupported("class weights")
    if a.get("label_smoothing", 0.0) != 0.0:
        raise _Unsupported("label smoothing")
    if logits.ndim != 2 or labels.ndim != 1:
        raise _Unsupported("logits other than [N, C] with labels [N] (reshape them first)")
    return int(a.get("reduction", 1)), int(a.get("ignore_index", -100))


@_rule("aten.cross_entropy_loss.default")
def _cross_entropy(fd, node, a):
    logits, labels = a["self"], a["target"]
    reduction, ignore = _loss_args(a, logits, labels)
    losses = fd.cross_entropy(logits, labels, ignore_index=ignore)
    return _reduce_loss(fd, losses, _labels_kept(fd, labels, ignore, logits.dtype), reduction)[0]


def _nll(fd: FusionDefinition, a: Dict[str, Any]) -> Tuple[Tensor, Tensor]:
    logp, labels = a["self"], a["target"]
    reduction, ignore = _loss_args(a, logp, labels)
    kept = _labels_kept(fd, labels, ignore, logp.dtype)
    picked = fd.sum(fd.mul(logp, fd.one_hot(labels, logp.shape[1], logp.dtype)), [1])
    losses = fd.mul(fd.neg(picked), kept)
    return _reduce_loss(fd, losses, kept, reduction)


@_rule("aten.nll_loss_forward.default")
def _nll_loss_forward(fd, node, a):
    return _nll(fd, a)


@_rule("aten.nll_loss_nd.default", "aten.nll_loss.default")
def _nll_loss(fd, node, a):
    return _nll(fd, a)[0]


# -- the importer -----------------------------------------------------------------------------


def _schema(node: Any) -> str:
    schema = getattr(node.target, "_schema", None)
    return str(schema) if schema is not None else "(no ATen schema)"


def _mutates(node: Any) -> bool:
    """Whether the op writes one of its arguments (an in-place or out= overload)."""
    schema = getattr(node.target, "_schema", None)
    return schema is not None and any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments)


def _where_text(node: Any) -> str:
    loc = _user_frame(node)
    module = _module_path(node)
    parts = []
    if loc is not None:
        parts.append(f"at {loc[0]}:{loc[1]}")
    if module:
        parts.append(f"in module {module}")
    return " ".join(parts)


def _fail(node: Any, message: str, fallback: Loc) -> BaseException:
    loc = _user_frame(node) or fallback
    return argument_error(ValueError(message), loc)


def _bind(node: Any, env: Dict[Any, Any]) -> Dict[str, Any]:
    """`node`'s arguments by their schema names (defaults filled in), fx nodes replaced by
    the values translated for them."""

    def value(x: Any) -> Any:
        if isinstance(x, torch.fx.Node):
            return env[x]
        if isinstance(x, (list, tuple)):
            return type(x)(value(v) for v in x)
        return x

    schema = node.target._schema
    out: Dict[str, Any] = {}
    for i, arg in enumerate(schema.arguments):
        if i < len(node.args) and not arg.kwarg_only:
            out[arg.name] = value(node.args[i])
        elif arg.name in node.kwargs:
            out[arg.name] = value(node.kwargs[arg.name])
        elif arg.has_default_value():
            out[arg.name] = arg.default_value
        else:
            out[arg.name] = None
    return out


@dataclass
class InputSpec:
    """One input of an imported program: its name (a parameter's or buffer's fully qualified
    name, a constant's name, or the `forward` argument's), kind ("parameter", "buffer",
    "constant", "user"), global shape and fuser element type."""

    name: str
    kind: str
    shape: Tuple[int, ...]
    dtype: str


class ImportedModule:
    """A torch module imported as a fusion program (made by `fuser.torch.compile`).

    - `fd`: the `FusionDefinition`; `inputs`: an `InputSpec` per program input, in order;
      `input_names`: their names; `outputs`: the number of outputs.
    - `arguments(*args)`: the program's input arrays (NumPy) for the user inputs `args`, the
      module's current parameters and buffers first.
    - `execute(*args, **run)` / `program(*args)`: runs the program (`fd.execute`'s keywords:
      `ranks`, `check`, `pipeline`, `timeout`) and returns torch tensors.
    - `forward(*args)`: the same run as a `torch.autograd.Function` (gradients flow to the
      module's parameters and to `args`); `backward_program()`: the `fuser.Backward` it uses.
    - `to_rank(rank)`: the program on one rank of a multi-process run (a `RankModule`: local
      shards in and out, forward and backward; `fuser._torch_rank`).
    """

    def __init__(self, module: torch.nn.Module, exported: Any, fd: FusionDefinition, inputs: List[InputSpec],
                 out_dtypes: List[Any]) -> None:
        self.module = module
        self.exported = exported
        self.fd = fd
        self.inputs = inputs
        self.input_names = [s.name for s in inputs]
        self.outputs = len(out_dtypes)
        self._out_dtypes = out_dtypes
        self._backward: Any = None
        #: Where placements and the plan put layouts (`fuser._torch_placements.Resolved`),
        #: None for a replicated or mesh-less import.
        self.placement: Any = None

    def _values(self, args: Sequence[Any]) -> List[Any]:
        """The program's inputs in order: the module's parameters, buffers and constants
        (their current values), then `args`, checked in number."""
        state = dict(self.module.named_parameters(remove_duplicate=False))
        state.update(dict(self.module.named_buffers(remove_duplicate=False)))
        constants = getattr(self.exported, "constants", {})
        users = list(args)
        n_user = sum(1 for s in self.inputs if s.kind == "user")
        if len(users) != n_user:
            raise argument_error(ValueError(f"{n_user} user inputs expected, {len(users)} given"))
        out: List[Any] = []
        for spec in self.inputs:
            if spec.kind == "user":
                out.append(users.pop(0))
            elif spec.kind == "constant":
                out.append(constants[spec.name])
            else:
                out.append(state[spec.name])
        return out

    def arguments(self, *args: Any) -> List[np.ndarray]:
        """The program's inputs as NumPy arrays: parameters, buffers and constants from the
        module (their current values), then `args` (torch tensors or arrays)."""
        return [_numpy(v) for v in self._values(args)]

    def execute(self, *args: Any, **run: Any) -> List[torch.Tensor]:
        """Runs the program on the cpu backend (global tensors); torch tensors out, outside
        autograd (see `forward` for the differentiable call)."""
        outputs = self.fd.execute(self.arguments(*args), **run)
        return [_torch(o, dt) for o, dt in zip(outputs, self._out_dtypes)]

    def __call__(self, *args: Any) -> List[torch.Tensor]:
        return self.execute(*args)

    def backward_program(self) -> Any:
        """The `fuser.Backward` of the program with respect to every floating-point input
        (made once)."""
        if self._backward is None:
            self._backward = self.fd.backward()
        return self._backward

    def forward(self, *args: Any) -> List[torch.Tensor]:
        """Runs the program as a `torch.autograd.Function`: the outputs are torch tensors
        connected to the module's parameters and to `args`, so `loss.backward()` fills
        their `.grad` through the program's `fwd`/`bwd` split (`backward_program()`) and torch
        optimizers work unchanged (cpu backend, one process)."""
        tensors = [v if isinstance(v, torch.Tensor) else torch.as_tensor(v) for v in self._values(args)]
        return list(_ProgramFunction.apply(self, *tensors))

    def to_rank(self, rank: Any, pipeline: Optional[str] = None) -> Any:
        """This program on `rank` (a `fuser.torch.Rank`, one process of a torchrun run),
        lowered by `pipeline` (default: the rank's `pipeline`, `tp-default`, with cuda_ipc
        collectives where ranks share a GPU): a
        `fuser._torch_rank.RankModule`, the torch module whose parameters are this rank's
        shards of the module's (sliced from their current values, or a DTensor's local
        tensor) and whose forward takes this rank's local shards of the inputs and returns
        its local shards of the outputs, differentiably (the program's `fwd`/`bwd` on the
        rank). The program's mesh must have the run's `rank.world` devices."""
        from ._torch_rank import RankModule

        return RankModule(self, rank, pipeline or getattr(rank, "pipeline", DEFAULT_PIPELINE))

    def report(self, pipeline: str = "builtin.module(tp-default)") -> Any:
        """The program lowered by `pipeline`, summarized: every GEMM (`host.linear`/
        `host.matmul`) with the torch module and source line it comes from, its shardings and
        the stream loop / collectives it runs with (the overlap it got), and every collective
        the reshardings became (`comm.allgather`, `reduce_scatter`, `allreduce`, ...) with its
        line and module. A `fuser._torch_report.Report` (`gemms`, `collectives` as dicts;
        `str()` as text)."""
        from ._torch_report import report

        return report(self, pipeline)

    def __repr__(self) -> str:
        return f"ImportedModule({type(self.module).__name__}: {len(self.inputs)} inputs, {self.outputs} outputs)"


def _torch(array: np.ndarray, dtype: Any) -> torch.Tensor:
    return torch.from_numpy(np.array(array, order="C")).to(dtype)


class _ProgramFunction(torch.autograd.Function):
    """An imported program as an autograd node: forward runs the program's `fwd` (outputs and
    saved values), backward its `bwd` (the gradients of the floating-point inputs)."""

    @staticmethod
    def forward(ctx: Any, program: "ImportedModule", *tensors: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        bw = program.backward_program()
        outputs, saved = bw.forward([_numpy(t) for t in tensors])
        ctx.program, ctx.saved = program, saved
        ctx.input_dtypes = [t.dtype for t in tensors]
        result = tuple(_torch(o, dt) for o, dt in zip(outputs, program._out_dtypes))
        ctx.mark_non_differentiable(*[r for r in result if not r.is_floating_point()])
        return result

    @staticmethod
    def backward(ctx: Any, *grads: Optional[torch.Tensor]) -> Tuple[Optional[torch.Tensor], ...]:
        program = ctx.program
        bw = program.backward_program()
        fd = program.fd
        cotangents = []
        for out, g in zip(fd.outputs, grads):
            if not any(out is c for c in bw.cotangents):
                continue
            cotangents.append(np.zeros(out.shape) if g is None else _numpy(g))
        gradients = bw.backward(ctx.saved, cotangents)
        position = {id(t): i for i, t in enumerate(fd.inputs)}
        result: List[Optional[torch.Tensor]] = [None] * len(fd.inputs)
        for t, g in zip(bw.wrt, gradients):
            i = position[id(t)]
            result[i] = _torch(g, ctx.input_dtypes[i])
        return (None, *result)


def _numpy(value: Any) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        t = value.detach().cpu()
        if t.dtype == torch.bfloat16:
            t = t.float()
        return t.numpy()
    return np.asarray(value)


def import_module(
    module: torch.nn.Module,
    example_inputs: Sequence[Any],
    *,
    mesh: Any = None,
    name: str = "fusion",
    decompose: bool = False,
    placements: Optional[Dict[str, Any]] = None,
    output_placements: Any = None,
    plan: Optional[Dict[str, Any]] = None,
    stream: Optional[int] = None,
    stream_dim: int = 1,
) -> ImportedModule:
    """Captures `module` with `torch.export.export(module, example_inputs)` and translates
    its ATen graph into a `FusionDefinition` through `ATEN_OPS` (with `decompose`, the graph is
    first decomposed to the core ATen opset). `mesh`: the program's device mesh (every tensor
    replicated over it). An ATen op without a rule, or one whose arguments the rule cannot
    translate, raises `FuserValueError` at the user's source line.

    `placements`, `output_placements`, `plan`, `stream`: see `fuser.torch.compile` and
    docs/pytorch.md; with any of them the ops the plan does not fix are left unannotated
    (`fusion-propagate-sharding` decides their shardings)."""
    caller = caller_location()
    if not isinstance(module, torch.nn.Module):
        raise argument_error(TypeError(f"module must be a torch.nn.Module, not {type(module).__name__}"), caller)
    if isinstance(example_inputs, torch.Tensor) or not isinstance(example_inputs, (list, tuple)):
        example_inputs = (example_inputs,)
    sharded = placements is not None or output_placements is not None or plan is not None or stream is not None
    entries: List[Any] = []
    if sharded or (mesh is not None and not isinstance(mesh, Mesh)):
        from ._torch_placements import match_plan, mesh_of

        with arguments(caller):
            if mesh is None:
                raise ValueError("placements, output_placements, plan and stream need a mesh (mesh=fuser.Mesh(...) or a mesh shape)")
            mesh = mesh_of(mesh)
            if placements is not None and not isinstance(placements, dict):
                raise TypeError(f"placements must be a dict of input name -> placements, not {type(placements).__name__}")
            if stream is not None and (isinstance(stream, bool) or not hasattr(stream, "__index__") or int(stream) < 1):
                raise ValueError(f"stream must be a positive number of stream chunks, not {stream!r}")
            if plan is not None:
                entries = match_plan(module, plan)
    preserve = tuple(fqn for fqn, _, _ in entries)
    exported = torch.export.export(module, tuple(example_inputs), preserve_module_call_signature=preserve)
    if decompose:
        exported = exported.run_decompositions()
    resolved = None
    if sharded:
        from ._torch_placements import resolve

        with arguments(caller):
            resolved = resolve(
                module, exported, mesh, placements, output_placements, entries,
                (int(stream), int(stream_dim)) if stream is not None else None,
            )
    sig = exported.graph_signature
    from torch.export.graph_signature import InputKind, OutputKind

    kinds = {
        InputKind.PARAMETER: "parameter",
        InputKind.BUFFER: "buffer",
        InputKind.CONSTANT_TENSOR: "constant",
        InputKind.USER_INPUT: "user",
    }
    spec_of = {s.arg.name: s for s in sig.input_specs if hasattr(s.arg, "name")}
    for s in sig.output_specs:
        if s.kind != OutputKind.USER_OUTPUT:
            raise argument_error(
                ValueError(f"the module mutates state ({s.kind.name} of {s.target}): fuser imports pure forward functions only"),
                caller,
            )

    fd = _ImportDefinition(mesh=mesh, name=name)
    if resolved is not None:
        fd.annotate_defaults = False
    env: Dict[Any, Any] = {}
    inputs: List[InputSpec] = []
    out_dtypes: List[Any] = []
    graph = exported.graph
    for node in graph.nodes:
        if node.op == "placeholder":
            spec = spec_of.get(node.name)
            v = _val(node)
            if not isinstance(v, torch.Tensor):
                env[node] = v  # a specialized non-tensor input (a Python number)
                continue
            kind = kinds.get(spec.kind) if spec is not None else None
            if kind is None:
                raise argument_error(ValueError(f"input {node.name} of kind {spec.kind if spec else '?'} is not supported"), caller)
            try:
                dtype = _fuser_dtype(v.dtype)
            except _Unsupported as e:
                raise argument_error(ValueError(f"input {node.name}: {e}"), caller) from None
            label = spec.target if kind != "user" else node.name
            fd._here = None
            given = resolved.inputs.get(node.name) if resolved is not None else None
            if given is not None:
                from ._torch_placements import sharding_kwargs

                env[node] = fd.define_tensor([int(s) for s in v.shape], dtype, **sharding_kwargs(given))
            else:
                env[node] = fd.define_tensor([int(s) for s in v.shape], dtype)
            inputs.append(InputSpec(label, kind, tuple(int(s) for s in v.shape), dtype))
        elif node.op == "call_function":
            fd._here = _user_frame(node)
            if node.target is operator.getitem:
                env[node] = env[node.args[0]][node.args[1]]
                continue
            key = str(node.target)
            rule = ATEN_OPS.get(key)
            if rule is None:
                why = "fuser has no translation for it"
                if _mutates(node):
                    why = (
                        "it writes its argument in place (a buffer update such as BatchNorm's in training "
                        "mode?), and fuser imports pure functions only"
                    )
                raise _fail(
                    node,
                    f"unsupported ATen op {key} (schema: {_schema(node)}) {_where_text(node)}; {why} and "
                    "never falls back to torch (docs/pytorch.md lists the supported ops)",
                    caller,
                )
            try:
                if resolved is not None:
                    bound = _bind(node, _converted(fd, resolved, node, env))
                    fd._node_sharding = _node_sharding(resolved, node)
                else:
                    bound = _bind(node, env)
                try:
                    env[node] = rule(fd, node, bound)
                finally:
                    fd._node_sharding = None
            except _Unsupported as e:
                raise _fail(
                    node,
                    f"ATen op {key} (schema: {_schema(node)}) {_where_text(node)}: unsupported arguments: {e}",
                    caller,
                ) from None
        elif node.op == "output":
            fd._here = None
            results = node.args[0]
            for j, r in enumerate(results if isinstance(results, (list, tuple)) else (results,)):
                value = env.get(r) if isinstance(r, torch.fx.Node) else r
                if not isinstance(value, Tensor):
                    raise argument_error(ValueError(f"output {r} is not a tensor (got {value!r})"), caller)
                if resolved is not None:
                    value = _converted(fd, resolved, None, env, r).get(r, value)
                    if j in resolved.outputs:
                        from ._torch_placements import sharding_kwargs

                        fd._here = _user_frame(r) if isinstance(r, torch.fx.Node) else None
                        value = fd.set(value, **sharding_kwargs(resolved.outputs[j]))
                        fd._here = None
                fd.add_output(value)
                out_dtypes.append(_val(r).dtype)
        else:
            raise argument_error(ValueError(f"graph node {node.name} of kind {node.op} is not supported"), caller)
    fd._here = None
    fd.module()  # verified
    program = ImportedModule(module, exported, fd, inputs, out_dtypes)
    program.placement = resolved
    return program


def _module_fqns(node: Any) -> List[str]:
    """The fully qualified names of the modules `node` was emitted in, outermost first."""
    return [fqn for fqn, _ in (node.meta.get("nn_module_stack") or {}).values()]


def _node_sharding(resolved: Any, node: Any) -> Optional[Tuple[int, Dict[str, Any]]]:
    from ._torch_placements import sharding_kwargs

    s = resolved.nodes.get(node.name)
    if s is None:
        return None
    return (len(s.axes), sharding_kwargs(s))


def _converted(fd: FusionDefinition, resolved: Any, node: Any, env: Dict[Any, Any], only: Any = None) -> Any:
    """`env` with the values `node` reads replaced by their resharded versions where the plan
    reshards them for it: `desired_output_layouts` of a module `node` is outside of,
    `desired_input_layouts` of the modules `node` is in (outermost first). `node` None: a
    graph output (outside every module), for the value `only`. The resharding `set`s are made
    once per value and module, at the line of their first reader."""
    from collections import ChainMap

    from ._torch_placements import _inside, sharding_kwargs

    stack = _module_fqns(node) if node is not None else []
    reads = [only] if node is None else list(node.all_input_nodes)
    cache = fd._conversions
    changed: Dict[Any, Any] = {}
    for v in reads:
        if not isinstance(v, torch.fx.Node) or v not in env or not isinstance(env[v], Tensor):
            continue
        steps = []
        for (pf, name), s in resolved.out_converts.items():
            if name == v.name and not any(_inside(f, pf) for f in stack):
                steps.append(("out", pf, s))
        for fqn in stack:
            if (fqn, v.name) in resolved.converts:
                steps.append(("in", fqn, resolved.converts[(fqn, v.name)]))
        value, key = env[v], (v.name,)
        for kind, fqn, s in steps:
            key = key + ((kind, fqn),)
            if key not in cache:
                saved = fd._here
                fd._here = (_user_frame(node) if node is not None else None) or _user_frame(v)
                cache[key] = fd.set(value, **sharding_kwargs(s))
                fd._here = saved
            value = cache[key]
        if steps:
            changed[v] = value
    return ChainMap(changed, env) if node is not None else changed
