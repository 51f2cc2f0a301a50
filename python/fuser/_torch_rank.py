"""An imported torch module on one rank of a multi-process run (issue 26, under torchrun):
`ImportedModule.to_rank(rank)` returns a `RankModule`, a `torch.nn.Module` holding this
rank's shards of the module's parameters, whose forward takes this rank's local shards of
the inputs and returns its local shards of the outputs, differentiably.

```python
rank = fuser.torch.Rank(backend="cpu")              # or Rank() on GPUs
program = fuser.torch.compile(module, (x,), mesh=rank.world, plan=plan, ...)
local = program.to_rank(rank)                        # this rank's parameter shards
opt = torch.optim.AdamW(local.parameters())
(y,) = local(local.shard_input(0, x))                # local shards in, local shards out
y.sum().backward(); opt.step()
```

The forward runs the program's `fwd` (outputs and saved values), the backward its `bwd`
(`fd.backward()`, docs/training.md) on the rank: the saved values stay on the rank as torch
tensors (never gathered), and each gradient comes back sharded like its input, so torch's
optimizers work on the local shards unchanged. Without gradients (`torch.no_grad()`, or no
input requiring one) the plain forward program runs. DTensor inputs (with torch.distributed
initialized) are taken by `.to_local()` and the outputs wrapped back as DTensors on the same
device mesh with the placements the program gives them.

Where each tensor lives is read from the lowered programs' signatures (the
`fusion.global_type` of every argument and result): `Layout` slices a global tensor into a
rank's piece (`piece`), puts the pieces back together (`gather`) and names the torch
placements (`placements`).
"""

from __future__ import annotations

import ast
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch

from ._errors import arguments
from ._execute import DEFAULT_PIPELINE
from .torch import _TORCH_DTYPES as _DTYPES

_AXES = {"DIDx": 0, "DIDy": 1, "DIDz": 2}  # offset from the last mesh axis


class Layout:
    """Where a tensor of a program's signature lives: its global `shape`, element type
    `dtype`, and (when sharded) per tensor axis its outer splits (`splits`: lists of
    `"DIDx"`/`"DIDy"`/`"DIDz"`/`"Stream(n)"`, outermost first), the device axes it is partial
    over (`partial`) and the mesh's shape and devices. Rank `r` is device `r` of the mesh."""

    def __init__(self, shape: Sequence[int], dtype: str, splits: Optional[List[List[str]]] = None,
                 partial: Sequence[str] = (), reduce: str = "sum", mesh_shape: Sequence[int] = (),
                 devices: Sequence[int] = ()) -> None:
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype
        self.splits = splits if splits is not None else [[] for _ in self.shape]
        self.partial = list(partial)
        self.reduce = reduce
        self.mesh_shape = tuple(mesh_shape)
        self.devices = list(devices)

    @property
    def replicated(self) -> bool:
        return not self.partial and all(not any(s in _AXES for s in axis) for axis in self.splits)

    def _digit(self, axis_name: str, rank: int) -> Tuple[int, int]:
        """(rank's coordinate along the mesh axis of `axis_name`, that axis's size)."""
        k = len(self.mesh_shape) - 1 - _AXES[axis_name]
        if k < 0:
            raise ValueError(f"{axis_name}: the mesh has {len(self.mesh_shape)} axes")
        if rank not in self.devices:
            raise ValueError(f"rank {rank} is not a device of the program's mesh {self.devices}")
        pos = self.devices.index(rank)
        coords = []
        for extent in reversed(self.mesh_shape):
            coords.append(pos % extent)
            pos //= extent
        coords.reverse()
        return coords[k], int(self.mesh_shape[k])

    def _positions(self, extent: int, splits: List[str], rank: int) -> List[int]:
        """The global positions along one axis that `rank` holds, in local order (as the
        runtime's `held_positions`)."""
        factors, wanted = [], []
        for s in splits:
            if s in _AXES:
                coord, size = self._digit(s, rank)
                factors.append(size)
                wanted.append(coord)
            else:
                factors.append(int(s[len("Stream("):-1]))
                wanted.append(None)
        outer = 1
        for f in factors:
            outer *= f
        if outer == 0 or extent % outer:
            raise ValueError(f"extent {extent} is not divisible by its splits ({outer})")
        inner = extent // outer
        held = []
        for p in range(extent):
            q, ok = p // inner, True
            for f, w in zip(reversed(factors), reversed(wanted)):
                if w is not None and q % f != w:
                    ok = False
                    break
                q //= f
            if ok:
                held.append(p)
        return held

    def piece(self, full: torch.Tensor, rank: int) -> torch.Tensor:
        """Rank `rank`'s piece of the global tensor `full` (a new dense tensor). A partial
        layout's piece is `full` itself on the first device of each partial team and zeros on
        the others (a sum)."""
        if tuple(full.shape) != self.shape:
            raise ValueError(f"the tensor has shape {list(full.shape)}, the program takes {list(self.shape)}")
        out = full.detach()
        for d, splits in enumerate(self.splits):
            if any(s in _AXES for s in splits):
                index = torch.tensor(self._positions(self.shape[d], splits, rank), dtype=torch.long)
                out = out.index_select(d, index)
        out = out.contiguous().clone()
        if self.partial:
            if self.reduce != "sum":
                raise ValueError(f"a piece of a value partial under {self.reduce!r}: only sums are supported")
            if any(self._digit(a, rank)[0] != 0 for a in self.partial):
                out.zero_()
        return out

    def gather(self, pieces: Sequence[torch.Tensor]) -> torch.Tensor:
        """The global tensor put together from every rank's piece (`pieces[r]`: rank `r`'s);
        a partial value's pieces are summed over the partial team of device 0."""
        full = torch.zeros(self.shape, dtype=pieces[0].dtype)
        if not self.shape:
            return pieces[0].clone() if not self.partial else sum(pieces[1:], pieces[0].clone())
        for r, p in enumerate(pieces):
            if self.partial and r != 0:
                others = [a for a in _AXES if a not in self.partial and len(self.mesh_shape) > _AXES[a]]
                if any(self._digit(a, r)[0] != self._digit(a, self.devices[0])[0] for a in others):
                    continue
            lists = [self._positions(self.shape[d], s, r) if any(x in _AXES for x in s) else list(range(self.shape[d]))
                     for d, s in enumerate(self.splits)]
            index = torch.meshgrid(*[torch.tensor(x, dtype=torch.long) for x in lists], indexing="ij")
            if self.partial:
                full[index] += p
            else:
                full[index] = p
        return full

    def placements(self) -> List[Any]:
        """The torch `Placement` per mesh axis (`Shard(d)`, `Replicate()`, `Partial()`);
        ValueError for a layout DTensor cannot express (two device splits on one axis, a
        stream split outside a device split)."""
        from torch.distributed.tensor import Partial, Replicate, Shard

        out: List[Any] = [Replicate() for _ in self.mesh_shape]
        for d, splits in enumerate(self.splits):
            devs = [s for s in splits if s in _AXES]
            if not devs:
                continue
            if len(devs) > 1 or splits[0] not in _AXES:
                raise ValueError(f"axis {d} split as {splits}: not a DTensor placement")
            out[len(self.mesh_shape) - 1 - _AXES[devs[0]]] = Shard(d)
        for a in self.partial:
            out[len(self.mesh_shape) - 1 - _AXES[a]] = Partial()
        return out

    def __repr__(self) -> str:
        return f"Layout({list(self.shape)}, {self.dtype}, splits={self.splits}, partial={self.partial})"


_GLOBAL = re.compile(
    r"fusion\.global_type = tensor<(?P<shape>(?:[0-9]+x)*)(?P<dtype>\w+)"
    r"(?:, #fusion\.shard<@(?P<mesh>[\w.$-]+), (?P<splits>\[(?:\[[^\]]*\](?:, )?)*\])"
    r"(?:, partial = \[(?P<partial>[^\]]*)\])?(?:, reduce = (?P<reduce>\w+))?>)?>"
)
_BUF = re.compile(r"!host\.buf<(?P<shape>(?:[0-9]+x)*)(?P<dtype>\w+)>")


def _top_level(text: str) -> List[str]:
    """`text` split at its top-level commas."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def _closing(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] in "<([{":
            depth += 1
        elif text[i] in ">)]}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced signature")


def signature_layouts(text: str, name: str) -> Tuple[List[Layout], List[Layout]]:
    """The `Layout`s of the arguments and results of function `@name` in the lowered program
    `text` (its printed MLIR)."""
    meshes: Dict[str, Tuple[Tuple[int, ...], List[int]]] = {}
    for m in re.finditer(r"fusion\.mesh @([\w.$-]+) = (\[[\[\]0-9, ]*\])", text):
        devices = ast.literal_eval(m.group(2))
        shape: List[int] = []
        level = devices
        while isinstance(level, list):
            shape.append(len(level))
            level = level[0] if level else None
        flat: List[int] = []

        def walk(x: Any) -> None:
            if isinstance(x, list):
                for y in x:
                    walk(y)
            else:
                flat.append(int(x))

        walk(devices)
        meshes[m.group(1)] = (tuple(shape), flat)
    head = f"func.func @{name}("
    at = text.find(head)
    if at < 0:
        raise ValueError(f"no function @{name} in the lowered program")
    open_args = at + len(head) - 1
    close_args = _closing(text, open_args)
    args = _top_level(text[open_args + 1:close_args])
    rest = text[close_args + 1:]
    results: List[str] = []
    arrow = rest.lstrip()
    if arrow.startswith("->"):
        tail = arrow[2:].lstrip()
        if tail.startswith("("):
            results = _top_level(tail[1:_closing(tail, 0)])
        else:
            results = [tail.split(" {", 1)[0].split("{\n", 1)[0]]

    def layout(entry: str) -> Layout:
        g = _GLOBAL.search(entry)
        if g is None:
            b = _BUF.search(entry)
            if b is None:
                raise ValueError(f"cannot read the type of {entry.strip()!r}")
            return Layout([int(s) for s in b.group("shape").split("x") if s], b.group("dtype"))
        shape = [int(s) for s in g.group("shape").split("x") if s]
        if g.group("mesh") is None:
            return Layout(shape, g.group("dtype"))
        splits = [[s.strip() for s in axis.split(",") if s.strip()]
                  for axis in re.findall(r"\[([^\[\]]*)\]", g.group("splits")[1:-1])]
        partial = [s.strip() for s in (g.group("partial") or "").split(",") if s.strip()]
        mesh_shape, devices = meshes.get(g.group("mesh"), ((), []))
        return Layout(shape, g.group("dtype"), splits, partial, g.group("reduce") or "sum", mesh_shape, devices)

    return [layout(a) for a in args], [layout(r) for r in results]


class _Compiled:
    """One program compiled on the rank, with its signature's layouts."""

    def __init__(self, rank: Any, program: Any, name: str, pipeline: str) -> None:
        module = program.module()
        self.native = rank.compile(module, pipeline)
        lowered = module.clone()
        lowered.run_pipeline(pipeline)
        self.args, self.results = signature_layouts(lowered.print(), name)


def _is_dtensor(x: Any) -> bool:
    try:
        from torch.distributed.tensor import DTensor
    except ImportError:  # pragma: no cover - torch without distributed
        return False
    return isinstance(x, DTensor)


class RankModule(torch.nn.Module):
    """An imported program on one rank (made by `ImportedModule.to_rank`): a `torch.nn.Module`
    whose parameters (and buffers) are this rank's shards of the module's, under the module's
    own names, and whose forward takes this rank's local shards of the user inputs and returns
    its local shards of the outputs (module doc).

    - `rank`: the `Rank`; `program`: the `ImportedModule`;
    - `layouts`: a `Layout` per program input (by name: parameters, buffers and constants by
      their fully qualified names, user inputs by argument name); `output_layouts`: one per
      output;
    - `shard_input(i, full)`: this rank's piece of user input `i`; `shard(name, full)`: of
      any program input; `gather_output(j, pieces)`: output `j` from every rank's piece.
    """

    def __init__(self, program: Any, rank: Any, pipeline: str = DEFAULT_PIPELINE) -> None:
        super().__init__()
        with arguments():
            for what in ("compile", "execute", "rank", "world"):
                if not hasattr(rank, what):
                    raise TypeError(f"rank must be a fuser.torch.Rank, not {type(rank).__name__}")
        self.rank = rank
        #: Where this rank's tensors live: its GPU for a cuda `Rank`, the CPU for a cpu one.
        self.device = torch.device("cuda", rank.device) if hasattr(rank, "device") else torch.device("cpu")
        self.program = program
        self.pipeline = pipeline
        fd = program.fd
        self._plain = _Compiled(rank, fd, fd.name, pipeline)
        with arguments():
            ranks = self._plain.native.ranks()
            if ranks != rank.world:
                raise ValueError(
                    f"the program runs on {ranks} ranks (its mesh), the run has {rank.world} (compile with mesh={rank.world})"
                )
        self._grad: Optional[Tuple[Any, _Compiled, _Compiled, List[Any], List[Any]]] = None
        self.layouts: Dict[str, Layout] = dict(zip(program.input_names, self._plain.args))
        self.output_layouts: List[Layout] = list(self._plain.results)
        state = dict(program.module.named_parameters(remove_duplicate=False))
        buffers = dict(program.module.named_buffers(remove_duplicate=False))
        for spec in program.inputs:
            if spec.kind not in ("parameter", "buffer"):
                continue
            full = state.get(spec.name, buffers.get(spec.name))
            local = full.to_local().to(self.device) if _is_dtensor(full) else self.shard(spec.name, full)
            owner, leaf = self._owner(spec.name)
            if spec.kind == "parameter":
                owner.register_parameter(leaf, torch.nn.Parameter(local.detach().clone(), requires_grad=full.requires_grad))
            else:
                owner.register_buffer(leaf, local.detach().clone())

    def _owner(self, fqn: str) -> Tuple[torch.nn.Module, str]:
        *path, leaf = fqn.split(".")
        owner: torch.nn.Module = self
        for p in path:
            if p not in owner._modules:
                owner.add_module(p, torch.nn.Module())
            owner = owner._modules[p]  # type: ignore[assignment]
        return owner, leaf

    def _state(self, fqn: str) -> torch.Tensor:
        owner, leaf = self._owner(fqn)
        value = owner._parameters.get(leaf)
        return value if value is not None else owner._buffers[leaf]  # type: ignore[return-value]

    def shard(self, name: str, full: torch.Tensor) -> torch.Tensor:
        """This rank's piece of program input `name` (a parameter's fully qualified name or a
        user input's argument name) given its global value `full`."""
        with arguments():
            if name not in self.layouts:
                raise ValueError(f"no program input named {name!r} (inputs: {list(self.layouts)})")
            if not isinstance(full, torch.Tensor):
                raise TypeError(f"{name}: a torch tensor expected, not {type(full).__name__}")
            return self.layouts[name].piece(full.detach().cpu(), self.rank.rank).to(self.device)

    def shard_input(self, i: int, full: torch.Tensor) -> torch.Tensor:
        """This rank's piece of user input `i` (the `i`-th `forward` argument)."""
        users = [s.name for s in self.program.inputs if s.kind == "user"]
        with arguments():
            if not 0 <= i < len(users):
                raise ValueError(f"user input {i}: the module takes {len(users)}")
        return self.shard(users[i], full)

    def gather_output(self, j: int, pieces: Sequence[torch.Tensor]) -> torch.Tensor:
        """Output `j` put together from every rank's local piece (`pieces[r]`: rank `r`'s)."""
        return self.output_layouts[j].gather(pieces)

    def _reshard(self, src: Layout, dst: Layout) -> Optional[Any]:
        """A program (compiled on the rank) taking a tensor laid out as `src` and returning it
        laid out as `dst` (a `fusion.set`: the collective between them); None if they agree."""
        if (src.splits, src.partial, src.reduce) == (dst.splits, dst.partial, dst.reduce) or not src.shape and not src.partial:
            return None
        from ._frontend import FusionDefinition
        from ._sharding import DIDx, DIDy, DIDz, Stream

        axes = {"DIDx": DIDx, "DIDy": DIDy, "DIDz": DIDz}

        def kwargs(lay: Layout) -> Dict[str, Any]:
            splits = [[axes[x] if x in axes else Stream(int(x[len("Stream("):-1])) for x in axis] for axis in lay.splits]
            out: Dict[str, Any] = {"splits": splits}
            if lay.partial:
                out.update(partial=[axes[x] for x in lay.partial], reduce=lay.reduce)
            return out

        with FusionDefinition(mesh=self.program.fd.mesh, name="reshard") as fd:
            x = fd.define_tensor(list(src.shape), src.dtype, **kwargs(src))
            fd.add_output(fd.ops.set(x, **kwargs(dst)))
        return self.rank.compile(fd, self.pipeline)

    def _gradient_programs(self) -> Tuple[Any, _Compiled, _Compiled, List[Any], List[Any]]:
        """`fd.backward()` and its `fwd`/`bwd` compiled on the rank, with the resharding
        programs between a saved value's layout in `fwd` and in `bwd`, and between a
        gradient's layout and its input's (None where they agree)."""
        if self._grad is None:
            bw = self.program.backward_program()
            name = self.program.fd.name
            fwd = _Compiled(self.rank, bw.fwd, f"{name}_fwd", self.pipeline)
            bwd = _Compiled(self.rank, bw.bwd, f"{name}_bwd", self.pipeline)
            n = len(self.output_layouts)
            saved = [self._reshard(a, b) for a, b in zip(fwd.results[n:], bwd.args)]
            grads = []
            for t, g in zip(bw.wrt, bwd.results):
                i = next(i for i, x in enumerate(self.program.fd.inputs) if x is t)
                grads.append(self._reshard(g, self._plain.args[i]))
            self._grad = (bw, fwd, bwd, saved, grads)
        return self._grad

    def forward(self, *args: Any) -> List[Any]:  # type: ignore[override]
        """Runs this rank's part of the program on its local shards of the user inputs
        (torch tensors, or DTensors whose `.to_local()` is taken); returns its local shards of
        the outputs (DTensors when DTensors were given), connected to autograd."""
        users = list(args)
        n_user = sum(1 for s in self.program.inputs if s.kind == "user")
        with arguments():
            if len(users) != n_user:
                raise ValueError(f"{n_user} user inputs expected, {len(users)} given")
        mesh = next((a.device_mesh for a in users if _is_dtensor(a)), None)
        users = [a.to_local() if _is_dtensor(a) else a for a in users]
        constants = getattr(self.program.exported, "constants", {})
        tensors: List[torch.Tensor] = []
        for spec in self.program.inputs:
            if spec.kind == "user":
                value = users.pop(0)
            elif spec.kind == "constant":
                value = self.shard(spec.name, constants[spec.name])
            else:
                value = self._state(spec.name)
            tensors.append(value if isinstance(value, torch.Tensor) else torch.as_tensor(value))
        if torch.is_grad_enabled() and any(t.requires_grad for t in tensors):
            outputs = list(_RankFunction.apply(self, *tensors))
        else:
            outputs = self.rank.execute(self._plain.native, [_dense(t) for t in tensors])
        if mesh is not None:
            from torch.distributed.tensor import DTensor

            outputs = [
                DTensor.from_local(o, mesh, lay.placements(), run_check=False, shape=torch.Size(lay.shape),
                                   stride=_strides(lay.shape))
                for o, lay in zip(outputs, self.output_layouts)
            ]
        return outputs


def _strides(shape: Sequence[int]) -> Tuple[int, ...]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= max(int(s), 1)
    return tuple(reversed(out))


def _dense(t: torch.Tensor) -> torch.Tensor:
    return t.detach().contiguous()


class _RankFunction(torch.autograd.Function):
    """A `RankModule`'s run as an autograd node: forward runs `fwd` on the rank (outputs and
    saved values, the latter kept as this rank's torch tensors), backward runs `bwd` on the
    saved values and the outputs' local cotangents (each rank's gradients, sharded as their
    inputs)."""

    @staticmethod
    def forward(ctx: Any, local: RankModule, *tensors: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        bw, fwd, _, reshard, _ = local._gradient_programs()
        out = local.rank.execute(fwd.native, [_dense(t) for t in tensors])
        n = len(local.output_layouts)
        ctx.local = local
        ctx.saved_values = [v if p is None else local.rank.execute(p, [v])[0] for v, p in zip(out[n:], reshard)]
        ctx.input_dtypes = [t.dtype for t in tensors]
        result = tuple(out[:n])
        ctx.mark_non_differentiable(*[r for r in result if not r.is_floating_point()])
        return result

    @staticmethod
    def backward(ctx: Any, *grads: Optional[torch.Tensor]) -> Tuple[Optional[torch.Tensor], ...]:
        local: RankModule = ctx.local
        bw, _, bwd, _, reshard = local._gradient_programs()
        fd = local.program.fd
        cotangents = []
        for j, (out, g) in enumerate(zip(fd.outputs, grads)):
            if not any(out is c for c in bw.cotangents):
                continue
            lay = local.output_layouts[j]
            shape = [int(s) for s in local._plain.native.result_types()[j][0]]
            cotangents.append(torch.zeros(shape, dtype=_DTYPES[lay.dtype], device=local.device) if g is None else _dense(g).to(_DTYPES[lay.dtype]))
        gradients = local.rank.execute(bwd.native, list(ctx.saved_values) + cotangents)
        ctx.saved_values = None
        result: List[Optional[torch.Tensor]] = [None] * len(fd.inputs)
        for t, g, p in zip(bw.wrt, gradients, reshard):
            i = next(i for i, x in enumerate(fd.inputs) if x is t)
            if p is not None:
                (g,) = local.rank.execute(p, [g])
            result[i] = g.to(ctx.input_dtypes[i])
        return (None, *result)
