"""Gradients of a `FusionDefinition`: `fd.backward(wrt=None)` (docs/training.md).

`fd.backward()` runs the `fusion-autodiff` pass (docs/dev/autodiff.md) on the definition's
program through the facade's `Compiler::autodiff` and returns a `Backward`, three programs
that run like the forward (`execute` on the cpu backend, `ranks` ranks, global NumPy arrays
in and out; `lower`, `mlir`, `module`):

- `bw.vjp`: the joint program: `execute(inputs + cotangents)` returns the outputs, then one
  gradient per `wrt` input;
- `bw.fwd`: `execute(inputs)` returns the outputs, then the saved values;
- `bw.bwd`: `execute(saved + cotangents)` returns the gradients.

and the calls built on them: `bw.forward(inputs)` -> `(outputs, Saved)`,
`bw.backward(saved, cotangents)` -> gradients, `bw.execute(inputs, cotangents)` ->
`(outputs, gradients)`. A cotangent is given per floating-point output (integer and `i1`
outputs take none) with that output's global shape; a gradient comes back with its input's
global shape. Gradients keep their inputs' shardings: each rank computes its piece of the
gradient of a split weight, and the run gathers the pieces as it gathers any output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _fuser
from ._errors import arguments
from ._execute import DEFAULT_PIPELINE, run

if TYPE_CHECKING:  # pragma: no cover
    from ._frontend import FusionDefinition, Tensor

_FLOATS = ("f64", "f32", "f16", "bf16")


class GradientProgram:
    """One program of a `Backward` (`bw.vjp`, `bw.fwd` or `bw.bwd`): a fusion-level module
    holding one function (`@NAME_vjp`, `@NAME_fwd` or `@NAME_bwd`), run like
    `FusionDefinition.execute`. Lowered programs are kept per pipeline, so a training loop
    lowers each once."""

    def __init__(self, module: _fuser.Module, name: str) -> None:
        self._module = module
        #: The function's symbol (`fusion_vjp`, ...).
        self.name = name
        self._shapes: Optional[List[Tuple[int, ...]]] = None
        self._lowered: Dict[str, _fuser.Module] = {}
        #: With `execute(check=True)`: each output's (relative error, tolerance).
        self.last_check: Optional[List[Tuple[float, float]]] = None

    def module(self) -> _fuser.Module:
        """The fusion-level program (a fresh copy)."""
        return self._module.clone()

    def mlir(self, *, generic: bool = False, debug_info: bool = False) -> str:
        """The program's MLIR text (with the Python locations when `debug_info`)."""
        return self._module.print(generic=generic, debug_info=debug_info)

    def lower(self, pipeline: str = DEFAULT_PIPELINE) -> _fuser.Module:
        """The program lowered by `pipeline`: the host program (a fresh copy)."""
        return self._lowered_by(pipeline).clone()

    def _lowered_by(self, pipeline: str) -> _fuser.Module:
        if pipeline not in self._lowered:
            m = self._module.clone()
            m.run_pipeline(pipeline)
            self._lowered[pipeline] = m
        return self._lowered[pipeline]

    def execute(
        self,
        inputs: Sequence[Any],
        *,
        ranks: Optional[int] = None,
        backend: str = "cpu",
        pipeline: str = DEFAULT_PIPELINE,
        check: bool = False,
        timeout: float = 60.0,
    ) -> List[np.ndarray]:
        """Runs the program on `ranks` cpu ranks (default: the forward's mesh devices) with
        the global `inputs`, as `FusionDefinition.execute` does. With `check`, the outputs are
        compared with the unsharded reference evaluation (`self.last_check`), and the
        program is lowered again for the run; without it, the lowering made for `pipeline` is
        reused."""
        if check:
            outputs, checks = run(
                self._module, inputs, ranks=ranks, backend=backend, pipeline=pipeline, check=True, timeout=timeout
            )
            self.last_check = checks
            return outputs
        with arguments():
            if not isinstance(pipeline, str):
                raise TypeError(f"pipeline must be a string, not {type(pipeline).__name__}")
            self._check_inputs(inputs)
        lowered = self._lowered_by(pipeline)
        outputs, _ = run(lowered, inputs, ranks=ranks, backend=backend, pipeline=pipeline, timeout=timeout)
        self.last_check = None
        return outputs

    def _check_inputs(self, inputs: Sequence[Any]) -> None:
        """The count and global shapes of `inputs` against the function's arguments (the
        lowered program has only the local shapes)."""
        shapes = self._arg_shapes()
        if len(inputs) != len(shapes):
            raise ValueError(f"{self.name}: {len(shapes)} inputs expected, {len(inputs)} given")
        for i, (x, want) in enumerate(zip(inputs, shapes)):
            got = tuple(np.shape(x))
            if got != want:
                raise ValueError(f"{self.name}: input #{i} has shape {list(got)}, the function takes {list(want)}")

    def _arg_shapes(self) -> List[Tuple[int, ...]]:
        if self._shapes is None:
            args, _ = _fuser.signature(self._module)
            self._shapes = [tuple(shape) for shape, _ in args]
        return self._shapes

    def __repr__(self) -> str:
        return f"GradientProgram(@{self.name})"


class Saved:
    """What `Backward.forward` keeps for `Backward.backward`: the saved values (global NumPy
    arrays, in `@NAME_fwd`'s order) and what each is (`names`: `"argument 0"`, `"result 1 of
    fusion.layer_norm (forward op 3)"`, ...). `nbytes` is their total size."""

    __slots__ = ("values", "names", "_owner")

    def __init__(self, values: List[np.ndarray], names: List[str], owner: "Backward") -> None:
        self.values = values
        self.names = names
        self._owner = owner

    @property
    def nbytes(self) -> int:
        """The bytes the saved values take (as NumPy holds them)."""
        return int(sum(v.nbytes for v in self.values))

    def __len__(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        return f"Saved({len(self.values)} values, {self.nbytes} bytes: {self.names})"


class Backward:
    """The reverse-mode derivative of a `FusionDefinition` (made by `fd.backward(wrt)`).

    - `wrt`: the inputs (`Tensor`s) differentiated, one gradient each, in this order;
    - `cotangents`: the outputs that take a cotangent (the floating-point ones), in order;
    - `saved`: what `fwd` saves for `bwd` (one name per saved value);
    - `vjp`, `fwd`, `bwd`: the three `GradientProgram`s;
    - `forward(inputs)`, `backward(saved, cotangents)`, `execute(inputs, cotangents)`: runs.
    """

    def __init__(self, fd: "FusionDefinition", native: _fuser.Gradients) -> None:
        self.fd = fd
        self.wrt: List["Tensor"] = [fd.inputs[i] for i in native.wrt]
        self.cotangents: List["Tensor"] = [t for t, c in zip(fd.outputs, native.cotangents) if c]
        self.saved: List[str] = list(native.saved)
        self.vjp = GradientProgram(native.vjp, f"{fd.name}_vjp")
        self.fwd = GradientProgram(native.fwd, f"{fd.name}_fwd")
        self.bwd = GradientProgram(native.bwd, f"{fd.name}_bwd")

    def _cotangents(self, cotangents: Optional[Sequence[Any]]) -> List[Any]:
        """The given cotangents, checked in number; `None`: ones for every output that takes
        one (the gradient of the sum of those outputs' elements, e.g. of a scalar loss)."""
        if cotangents is None:
            return [np.ones(t.shape) for t in self.cotangents]
        cotangents = list(cotangents)
        if len(cotangents) != len(self.cotangents):
            raise ValueError(
                f"{len(self.cotangents)} cotangents expected (one per floating-point output), {len(cotangents)} given"
            )
        return cotangents

    def execute(
        self, inputs: Sequence[Any], cotangents: Optional[Sequence[Any]] = None, **run: Any
    ) -> Tuple[List[np.ndarray], List[np.ndarray]]:
        """Runs `vjp`: `(outputs, gradients)` for the global `inputs` and one cotangent per
        floating-point output (`None`: ones). `run` are `GradientProgram.execute`'s keywords
        (`ranks`, `pipeline`, `check`, `timeout`)."""
        with arguments():
            inputs = list(inputs)
            cts = self._cotangents(cotangents)
        out = self.vjp.execute(inputs + cts, **run)
        n = len(self.fd.outputs)
        return out[:n], out[n:]

    def forward(self, inputs: Sequence[Any], **run: Any) -> Tuple[List[np.ndarray], Saved]:
        """Runs `fwd`: the outputs and a `Saved` holding what `backward` needs."""
        out = self.fwd.execute(list(inputs), **run)
        n = len(self.fd.outputs)
        return out[:n], Saved(out[n:], self.saved, self)

    def backward(self, saved: Saved, cotangents: Optional[Sequence[Any]] = None, **run: Any) -> List[np.ndarray]:
        """Runs `bwd` on what `forward` saved and one cotangent per floating-point output
        (`None`: ones): one gradient per `wrt` input."""
        with arguments():
            if not isinstance(saved, Saved) or saved._owner is not self:
                raise TypeError("backward: saved must be what this Backward's forward() returned")
            cts = self._cotangents(cotangents)
        return self.bwd.execute(list(saved.values) + cts, **run)

    def __repr__(self) -> str:
        return f"Backward(@{self.fd.name}: wrt {[t.index for t in self.wrt]}, {len(self.saved)} saved values)"


def wrt_indices(fd: "FusionDefinition", wrt: Optional[Sequence[Any]]) -> Optional[List[int]]:
    """`wrt` (inputs as `Tensor`s or input positions) as input positions, checked: inputs of
    `fd`, floating-point, each once, at least one. `None` stays `None` (every floating-point
    input). Raises TypeError/ValueError (the caller turns them into FuserErrors at its line)."""
    from ._frontend import Tensor

    if wrt is None:
        if not any(t.dtype in _FLOATS for t in fd.inputs):
            raise ValueError("backward: the definition has no floating-point input to differentiate by")
        return None
    if isinstance(wrt, Tensor):
        wrt = [wrt]
    try:
        items = list(wrt)
    except TypeError:
        raise TypeError(f"backward: wrt must be a list of inputs (Tensors or positions), not {type(wrt).__name__}") from None
    if not items:
        raise ValueError("backward: wrt is empty: name at least one input")
    out: List[int] = []
    for k, w in enumerate(items):
        if isinstance(w, Tensor):
            if w.fd is not fd:
                raise ValueError(f"backward: wrt[{k}] belongs to another FusionDefinition")
            pos = next((i for i, t in enumerate(fd.inputs) if t is w or t.index == w.index), None)
            if pos is None:
                raise ValueError(f"backward: wrt[{k}] (value #{w.index}) is not an input (define_tensor) of the definition")
        elif isinstance(w, bool) or not hasattr(w, "__index__"):
            raise TypeError(f"backward: wrt[{k}] must be an input Tensor or an input position, not {w!r}")
        else:
            pos = int(w.__index__())
            if not 0 <= pos < len(fd.inputs):
                raise ValueError(f"backward: wrt[{k}] is {pos}, but the definition has {len(fd.inputs)} inputs")
        dtype = fd.inputs[pos].dtype
        if dtype not in _FLOATS:
            raise TypeError(f"backward: wrt[{k}] is input #{pos} of element type {dtype}: only floating-point inputs have a gradient")
        if pos in out:
            raise ValueError(f"backward: wrt[{k}] names input #{pos} a second time")
        out.append(pos)
    return out
