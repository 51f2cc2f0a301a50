"""`FusionDefinition`: build a sharded fusion program from Python without writing MLIR.

```python
import fuser
with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3])) as fd:
    x = fd.define_tensor([64, 128], "bf16", splits=[fuser.DIDx, []])
    w = fd.define_tensor([96, 128], "bf16")
    xg = fd.ops.set(x, splits=[fuser.Stream(4), []])
    y = fd.ops.linear(xg, w, splits=[fuser.Stream(4), []])
    fd.add_output(y)
print(fd.mlir())
```

Each call is checked at once (shapes, element types, shardings against the mesh; the whole
program is rebuilt and verified), and every op carries the Python file and line that made it:
a bad op raises `FuserError` pointing at that line, and so do later errors about it (in passes
or runs). Result sharding when an op is given none: the ops that keep their input's shape
(elementwise ops, `cast`, softmax, the norms, dropout) keep their first operand's; every other
op's result is replicated over the mesh. Without a mesh, tensors have no sharding at all. The
transformer ops (exp ... cross_entropy) are in `_ops.py`, mixed into `FusionDefinition`.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

from . import _fuser
from ._dtypes import dtype_name
from ._backward import Backward, wrt_indices
from ._errors import arguments
from ._execute import DEFAULT_PIPELINE, run
from ._location import caller_location, source_text
from ._ops import TransformerOps
from ._sharding import DeviceAxis, Mesh, Sharding, SplitsLike, make_sharding

_DEFAULT_COMPILER: Optional[_fuser.Compiler] = None


def default_compiler() -> _fuser.Compiler:
    """The compiler `FusionDefinition` uses unless given one (made on first use)."""
    global _DEFAULT_COMPILER
    if _DEFAULT_COMPILER is None:
        _DEFAULT_COMPILER = _fuser.Compiler()
    return _DEFAULT_COMPILER


class Tensor:
    """A tensor value of a `FusionDefinition`: its global shape, element type and sharding.

    Arithmetic operators build ops: `a + b`, `a - b`, `a * b`, `a / b`, `-a`, `a @ b`; the
    comparisons `a < b`, `a <= b`, `a > b`, `a >= b` build `compare` (an i1 tensor). `==` and
    `!=` stay Python's identity comparisons (use `fd.compare("eq", a, b)`)."""

    __slots__ = ("fd", "index", "sharding")

    def __init__(self, fd: "FusionDefinition", index: int, sharding: Optional[Sharding]) -> None:
        self.fd = fd
        self.index = index
        self.sharding = sharding

    @property
    def shape(self) -> Tuple[int, ...]:
        """The global (unsharded) shape."""
        return tuple(self.fd._program.shape(self.index))

    @property
    def ndim(self) -> int:
        """The rank."""
        return len(self.shape)

    @property
    def dtype(self) -> str:
        """fuser's element type name (`"bf16"`, `"f32"`, ...)."""
        return self.fd._program.dtype(self.index)

    def __repr__(self) -> str:
        return f"Tensor(#{self.index}, shape={list(self.shape)}, dtype={self.dtype}, sharding={self.sharding})"

    def __add__(self, other: "Tensor") -> "Tensor":
        return self.fd.add(self, other)

    def __sub__(self, other: "Tensor") -> "Tensor":
        return self.fd.sub(self, other)

    def __mul__(self, other: "Tensor") -> "Tensor":
        return self.fd.mul(self, other)

    def __truediv__(self, other: "Tensor") -> "Tensor":
        return self.fd.div(self, other)

    def __neg__(self) -> "Tensor":
        return self.fd.neg(self)

    def __matmul__(self, other: "Tensor") -> "Tensor":
        return self.fd.matmul(self, other)

    def __lt__(self, other: "Tensor") -> "Tensor":
        return self.fd.compare("lt", self, other)

    def __le__(self, other: "Tensor") -> "Tensor":
        return self.fd.compare("le", self, other)

    def __gt__(self, other: "Tensor") -> "Tensor":
        return self.fd.compare("gt", self, other)

    def __ge__(self, other: "Tensor") -> "Tensor":
        return self.fd.compare("ge", self, other)

    __hash__ = object.__hash__


def _ints(what: str, values: Any) -> List[int]:
    """`values` as a list of Python ints (numbers with an integral value, e.g. NumPy
    integers); TypeError/ValueError naming `what` otherwise."""
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{what} must be a sequence of integers, not {type(values).__name__}") from None
    out = []
    for i, v in enumerate(items):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            if isinstance(v, float) and v.is_integer():
                out.append(int(v))
                continue
            raise TypeError(f"{what}[{i}] must be an integer, not {v!r}")
        out.append(int(v.__index__()))
    return out


def _tensor(t: Any) -> "Tensor":
    if not isinstance(t, Tensor):
        raise TypeError(f"expected a fuser Tensor, got {type(t).__name__}")
    return t


def _rank(t: Any) -> int:
    """The rank of `t`, or 0 for a non-tensor (`_op` then refuses it at the caller's line)."""
    return t.ndim if isinstance(t, Tensor) else 0


class FusionDefinition(TransformerOps):
    """A fusion program being defined: inputs, ops, outputs on an optional device mesh.

    Use it as a context manager (`with fuser.FusionDefinition(mesh=...) as fd:`); the program
    is complete when the block ends. `fd.ops` is `fd` itself (nvFuser's spelling).

    `annotate_defaults` (default True): an op given no sharding on a mesh gets the default
    described in the module docstring. Set it to False before adding ops to leave such ops
    *unannotated*: `fusion-propagate-sharding` then decides their shardings from the annotated
    inputs and ops (what the torch importer does with placements and plans)."""

    annotate_defaults: bool = True

    def __init__(self, mesh: Optional[Mesh] = None, name: str = "fusion", compiler: Optional[_fuser.Compiler] = None) -> None:
        self.mesh = mesh
        self.name = name
        self.compiler = compiler if compiler is not None else default_compiler()
        self.inputs: List[Tensor] = []
        self.outputs: List[Tensor] = []
        self.last_check: Optional[List[Tuple[float, float]]] = None
        loc = self._loc()
        with arguments(loc):
            if mesh is not None and not isinstance(mesh, Mesh):
                raise TypeError(f"mesh must be a fuser.Mesh, not {type(mesh).__name__}")
            mesh_spec = (mesh.name, mesh.shape, mesh.devices) if mesh is not None else None
            self._program = _fuser.Program(self.compiler, name, mesh_spec, loc)
        self._register(loc)
        self._program.check()

    # -- context manager --------------------------------------------------------------------

    def __enter__(self) -> "FusionDefinition":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if exc_type is None:
            self._program.module()
        return False

    @property
    def ops(self) -> "FusionDefinition":
        """The ops (this object; `fd.ops.linear(...)` reads as in nvFuser)."""
        return self

    # -- inputs and outputs -----------------------------------------------------------------

    def define_tensor(
        self,
        shape: Sequence[int],
        dtype: Any = "f32",
        *,
        splits: Optional[SplitsLike] = None,
        partial: Optional[Sequence[DeviceAxis]] = None,
        reduce: str = "sum",
    ) -> Tensor:
        """An input of global shape `shape`; `splits` per axis (`[fuser.DIDx, []]`), `partial`
        device axes; replicated over the mesh when neither is given."""
        loc = self._loc()
        with arguments(loc):
            shape = _ints("define_tensor: shape", shape)
            sharding = make_sharding(splits, partial, reduce, len(shape))
            if sharding is None and self.mesh is not None:
                sharding = Sharding.replicated(len(shape))
            index = self._program.input(shape, dtype_name(dtype), sharding, loc)
        t = Tensor(self, index, sharding)
        self.inputs.append(t)
        return t

    def add_output(self, t: Tensor) -> None:
        """Marks `t` as the next output of the program."""
        loc = self._loc()
        with arguments(loc):
            self._check_mine(t)
            self._program.output(t.index, loc)
        self.outputs.append(t)

    # -- ops -------------------------------------------------------------------------------

    def matmul(self, a: Tensor, b: Tensor, **sharding: Any) -> Tensor:
        """`a [..., M, K] @ b [K, N]` (or batched `b`)."""
        return self._op("matmul", [a, b], _rank(a), sharding)

    def linear(self, x: Tensor, w: Tensor, bias: Optional[Tensor] = None, **sharding: Any) -> Tensor:
        """`x @ w.T (+ bias)`, with `x [..., K]`, `w [N, K]`, `bias [N]`."""
        operands = [x, w] + ([bias] if bias is not None else [])
        return self._op("linear", operands, _rank(x), sharding)

    def add(self, a: Tensor, b: Tensor, **sharding: Any) -> Tensor:
        """Elementwise `a + b`."""
        return self._op("add", [a, b], _rank(a), sharding, keeps=a)

    def sub(self, a: Tensor, b: Tensor, **sharding: Any) -> Tensor:
        """Elementwise `a - b`."""
        return self._op("sub", [a, b], _rank(a), sharding, keeps=a)

    def mul(self, a: Tensor, b: Tensor, **sharding: Any) -> Tensor:
        """Elementwise `a * b`."""
        return self._op("mul", [a, b], _rank(a), sharding, keeps=a)

    def div(self, a: Tensor, b: Tensor, **sharding: Any) -> Tensor:
        """Elementwise `a / b`."""
        return self._op("div", [a, b], _rank(a), sharding, keeps=a)

    def neg(self, x: Tensor, **sharding: Any) -> Tensor:
        """Elementwise `-x`."""
        return self._op("neg", [x], _rank(x), sharding, keeps=x)

    def cast(self, x: Tensor, dtype: Any, **sharding: Any) -> Tensor:
        """`x` converted to element type `dtype`."""
        with arguments():
            name = dtype_name(dtype)
        return self._op("cast", [x], _rank(x), sharding, keeps=x, dtype=name)

    def set(self, x: Tensor, **sharding: Any) -> Tensor:
        """A copy of `x` with another sharding: the explicit resharding point (a gather,
        scatter, all-to-all or reduction, whatever the two shardings call for)."""
        return self._op("set", [x], _rank(x), sharding)

    reshard = set

    def sum(self, x: Tensor, dims: Union[int, Sequence[int]], keep_dims: bool = False, **sharding: Any) -> Tensor:
        """The sum over axes `dims` (kept with extent 1 when `keep_dims`)."""
        with arguments():
            dims = _ints("sum: dims", [dims] if isinstance(dims, int) else dims)
            rank = _tensor(x).ndim if keep_dims else _tensor(x).ndim - len(dims)
        return self._op("sum", [x], rank, sharding, dims=dims, keep_dims=keep_dims)

    def broadcast(self, x: Tensor, new_axes: Sequence[Tuple[int, int]], **sharding: Any) -> Tensor:
        """`x` with new axes inserted: `new_axes` lists `(result axis, extent)` pairs."""
        with arguments():
            pairs = [tuple(_ints("broadcast: new_axes pair", p)) for p in new_axes]
            if any(len(p) != 2 for p in pairs):
                raise ValueError("broadcast: new_axes lists (result axis, extent) pairs")
            rank = _tensor(x).ndim + len(pairs)
        return self._op("broadcast", [x], rank, sharding, new_axes=pairs)

    def reshape(self, x: Tensor, shape: Sequence[int], **sharding: Any) -> Tensor:
        """`x` with the global shape `shape` (same element count, row-major)."""
        with arguments():
            shape = _ints("reshape: shape", shape)
        return self._op("reshape", [x], len(shape), sharding, shape=shape)

    def permute(self, x: Tensor, dims: Sequence[int], **sharding: Any) -> Tensor:
        """`x` with its axes reordered: result axis i is axis `dims[i]` of `x`."""
        with arguments():
            dims = _ints("permute: dims", dims)
            rank = _tensor(x).ndim
        return self._op("permute", [x], rank, sharding, dims=dims)

    # -- the program -----------------------------------------------------------------------

    def module(self) -> _fuser.Module:
        """The program as a verified fusion-level `Module` (a fresh copy)."""
        return self._program.module()

    def mlir(self, *, generic: bool = False, debug_info: bool = False) -> str:
        """The program's MLIR text (with `loc(...)` Python locations when `debug_info`)."""
        return self.module().print(generic=generic, debug_info=debug_info)

    def lower(self, pipeline: str = DEFAULT_PIPELINE) -> _fuser.Module:
        """The program lowered by `pipeline` (MLIR pipeline syntax): the host program."""
        m = self.module()
        m.run_pipeline(pipeline)
        return m

    def execute(
        self,
        inputs: Sequence[Any],
        *,
        ranks: Optional[int] = None,
        backend: str = "cpu",
        pipeline: str = DEFAULT_PIPELINE,
        check: bool = False,
        timeout: float = 60.0,
    ) -> List[Any]:
        """Runs the program; see `fuser.execute`. With `check`, `fd.last_check` holds each
        output's (relative error, tolerance) against the reference evaluation."""
        outputs, checks = run(self.module(), inputs, ranks=ranks, backend=backend, pipeline=pipeline, check=check, timeout=timeout)
        self.last_check = checks if check else None
        return outputs

    def backward(self, wrt: Optional[Sequence[Any]] = None) -> "Backward":
        """The reverse-mode derivative of the program with respect to the inputs `wrt`
        (`Tensor`s from `define_tensor`, or input positions; default: every floating-point
        input): a `fuser.Backward` with the joint program `vjp` (`execute(inputs +
        cotangents)` -> outputs + gradients) and its split `fwd` (outputs + saved values) /
        `bwd` (saved values + cotangents -> gradients), run like `execute`. Gradients keep
        their inputs' shardings. An op without a gradient rule raises `FuserError` at its
        Python line; an integer input in `wrt` raises `FuserTypeError` here. See
        docs/training.md."""
        loc = self._loc()
        with arguments(loc):
            indices = wrt_indices(self, wrt)
            if not self.outputs:
                raise ValueError("backward: the definition has no output (add_output) to differentiate")
        module = self.module()
        native = _fuser.autodiff(module, self.name, indices, loc)
        return Backward(self, native)

    # -- internals -------------------------------------------------------------------------

    def _loc(self) -> Tuple[str, int, int]:
        loc = caller_location()
        if hasattr(self, "_program"):
            self._register(loc)
        return loc

    def _register(self, loc: Tuple[str, int, int]) -> None:
        text = source_text(loc[0])
        if text:
            self._program.add_source(loc[0], text)

    def _check_mine(self, t: Any) -> None:
        if not isinstance(t, Tensor):
            raise TypeError(f"expected a fuser Tensor, got {type(t).__name__}")
        if t.fd is not self:
            raise ValueError("the tensor belongs to another FusionDefinition")

    def _op(
        self,
        name: str,
        operands: Sequence[Tensor],
        rank: int,
        sharding: Any,
        keeps: Optional[Tensor] = None,
        **attrs: Any,
    ) -> Tensor:
        loc = self._loc()
        with arguments(loc):
            unknown = set(sharding) - {"splits", "partial", "reduce"}
            if unknown:
                raise TypeError(f"{name}() got unexpected keyword arguments {sorted(unknown)}")
            for t in operands:
                self._check_mine(t)
            out = make_sharding(sharding.get("splits"), sharding.get("partial"), sharding.get("reduce", "sum"), rank)
            if out is None and self.mesh is not None and self.annotate_defaults:
                out = keeps.sharding if keeps is not None and keeps.sharding is not None else Sharding.replicated(rank)
            index = self._program.op(name, [t.index for t in operands], out, loc, **attrs)
        return Tensor(self, index, out)

    def _tensor_arg(self, op: str, what: str, t: Any) -> Tensor:
        """`t` if it is a Tensor of this definition; TypeError/ValueError naming `op` and the
        argument `what` otherwise (raised at the caller's line by the caller's `arguments`)."""
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}: {what} must be a fuser Tensor, got {type(t).__name__}")
        if t.fd is not self:
            raise ValueError(f"{op}: {what} belongs to another FusionDefinition")
        return t

    def _generic(
        self,
        name: str,
        operands: Sequence[Tensor],
        rank: int,
        sharding: Any,
        keeps: Optional[Tensor] = None,
        types: Optional[Sequence[Tuple[Sequence[int], str]]] = None,
        secondary: int = 0,
        secondary_layout: Optional[Callable[[Sharding], Sharding]] = None,
        **attrs: Any,
    ) -> List[Tensor]:
        """Records `fusion.<name>` through the native generic builder: result 0's sharding from
        the keywords (default: `keeps`'s splits, else replicated), `secondary` more results with result
        0's splits on their (leading) axes, or `secondary_layout(result 0's sharding)`; `types`
        the explicit result types, if any."""
        loc = self._loc()
        with arguments(loc):
            unknown = set(sharding) - {"splits", "partial", "reduce"}
            if unknown:
                raise TypeError(f"{name}() got unexpected keyword arguments {sorted(unknown)}")
            for t in operands:
                self._check_mine(t)
            out = make_sharding(sharding.get("splits"), sharding.get("partial"), sharding.get("reduce", "sum"), rank)
            if out is None and self.mesh is not None and self.annotate_defaults:
                # The operand's splits, never its pending reduction: these ops are not linear
                # (a partial operand is reduced first).
                kept = keeps.sharding if keeps is not None else None
                out = Sharding(kept.axes) if kept is not None else Sharding.replicated(rank)
            shardings: List[Optional[Sharding]] = [out]
            for j in range(1, 1 + secondary):
                lead = len(types[j][0]) if types is not None else 0
                if out is None:
                    shardings.append(None)
                elif secondary_layout is not None:
                    shardings.append(secondary_layout(out))
                else:
                    shardings.append(Sharding(out.axes[:lead]))
            native_attrs = [(k, v) for k, v in attrs.items()]
            native_types = [(list(s), d) for s, d in types] if types is not None else None
            indices = self._program.generic(name, [t.index for t in operands], shardings, loc, native_attrs, native_types)
        return [Tensor(self, i, shardings[j] if j < len(shardings) else None) for j, i in enumerate(indices)]
