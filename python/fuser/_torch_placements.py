"""Placements and tensor-parallel plans for imported torch modules (issue 26, item 2).

DTensor-style placements (`Shard(d)`, `Replicate()`, `Partial()`, one per mesh axis) and
torchtitan-style plans (`ColwiseParallel`, `RowwiseParallel`, `SequenceParallel`,
`PrepareModuleInput`, `PrepareModuleOutput` keyed by fnmatch patterns of module paths) are
resolved here into fuser shardings of the imported program's values, without
`torch.distributed` being initialized. torch's own placement and style objects are accepted
as well (read through their public attributes).

fuser's values are global: a placement says how a value is laid out over the mesh, never
what it is. So where two annotations disagree (an SP norm's `Shard(1)` output feeding a
column-parallel linear that wants `Replicate()`), fuser inserts the resharding (an allgather
here); the plan only fixes the layouts. Everything the plan does not fix is left unannotated
and `fusion-propagate-sharding` decides it.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._sharding import DeviceAxis, DIDx, DIDy, DIDz, Mesh, Sharding, Stream

# -- placements --------------------------------------------------------------------------------


class Placement:
    """A DTensor placement over one mesh axis (`Shard`, `Replicate`, `Partial`)."""

    def is_shard(self, dim: Optional[int] = None) -> bool:
        return False

    def is_replicate(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return False


class Shard(Placement):
    """`Shard(dim)`: the tensor's axis `dim` is split in equal chunks over the mesh axis."""

    __slots__ = ("dim",)

    def __init__(self, dim: int) -> None:
        if isinstance(dim, bool) or not hasattr(dim, "__index__"):
            raise TypeError(f"Shard(dim): dim must be an integer, not {dim!r}")
        self.dim = int(dim)

    def is_shard(self, dim: Optional[int] = None) -> bool:
        return dim is None or dim == self.dim

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shard) and other.dim == self.dim

    def __hash__(self) -> int:
        return hash(("Shard", self.dim))

    def __repr__(self) -> str:
        return f"Shard(dim={self.dim})"


class Replicate(Placement):
    """`Replicate()`: every device of the mesh axis holds the whole tensor."""

    def is_replicate(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Replicate)

    def __hash__(self) -> int:
        return hash("Replicate")

    def __repr__(self) -> str:
        return "Replicate()"


class Partial(Placement):
    """`Partial(reduce_op="sum")`: each device of the mesh axis holds a summand (or a max or
    min candidate); the tensor is their reduction."""

    __slots__ = ("reduce_op",)

    def __init__(self, reduce_op: str = "sum") -> None:
        self.reduce_op = reduce_op

    def is_partial(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Partial) and other.reduce_op == self.reduce_op

    def __hash__(self) -> int:
        return hash(("Partial", self.reduce_op))

    def __repr__(self) -> str:
        return f"Partial({self.reduce_op})"


#: fuser's reductions of a `partial` value, by DTensor's `reduce_op` name.
_REDUCE = {"sum": "sum", "max": "max", "min": "min"}


def placement(p: Any, what: str) -> Placement:
    """`p` as one of fuser's placements: fuser's own, or torch's
    (`torch.distributed.tensor.Shard/Replicate/Partial`, read by their attributes)."""
    if isinstance(p, Placement):
        out = p
    else:
        kind = type(p).__name__
        if kind == "Shard" and hasattr(p, "dim"):
            out = Shard(p.dim)
        elif kind == "Replicate":
            out = Replicate()
        elif kind == "Partial" and hasattr(p, "reduce_op"):
            out = Partial(str(p.reduce_op))
        else:
            raise ValueError(
                f"{what}: {p!r} is not a placement (fuser.torch.Shard(d), Replicate(), Partial(), or torch's "
                "Shard/Replicate/Partial; _StridedShard and other placements are not supported)"
            )
    if isinstance(out, Partial) and out.reduce_op not in _REDUCE:
        raise ValueError(f"{what}: Partial({out.reduce_op!r}) is not supported (fuser reduces partial values by sum, max or min)")
    return out


def mesh_of(mesh: Any) -> Mesh:
    """`mesh` as a `fuser.Mesh`: a Mesh, a number of devices, or a shape (`(2, 2)`)."""
    if isinstance(mesh, Mesh):
        return mesh
    if isinstance(mesh, bool):
        raise TypeError(f"mesh must be a fuser.Mesh, a device count or a mesh shape, not {mesh!r}")
    if hasattr(mesh, "__index__"):
        shape: List[int] = [int(mesh)]
    elif isinstance(mesh, (list, tuple)) and all(hasattr(s, "__index__") and not isinstance(s, bool) for s in mesh):
        shape = [int(s) for s in mesh]
    else:
        raise TypeError(f"mesh must be a fuser.Mesh, a device count or a mesh shape, not {mesh!r}")
    if not shape or any(s < 1 for s in shape) or len(shape) > 3:
        raise ValueError(f"mesh shape must be 1 to 3 positive extents, got {shape}")
    return Mesh(np.arange(int(np.prod(shape))).reshape(shape).tolist())


def device_axes(mesh: Mesh) -> List[DeviceAxis]:
    """The split of each mesh axis, in mesh order (the last axis is DIDx)."""
    return [DIDz, DIDy, DIDx][3 - len(mesh.shape):]


Layout = Tuple[Placement, ...]  # one placement per mesh axis


def layout_of(value: Any, mesh: Mesh, what: str) -> Layout:
    """A placement list (one per mesh axis; a single placement on a 1-D mesh) as a Layout."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(items) != len(mesh.shape):
        raise ValueError(f"{what}: {len(items)} placements for a {len(mesh.shape)}-D mesh (one per mesh axis)")
    return tuple(placement(p, what) for p in items)


def sharding_of(layout: Layout, shape: Sequence[int], mesh: Mesh, what: str, stream: Optional[Tuple[int, int]] = None) -> Sharding:
    """The fuser sharding of a tensor of global `shape` laid out as `layout` (splits of one
    tensor axis ordered as the mesh axes: mesh axis 0 outermost); with `stream = (axis, n)`,
    a `Stream(n)` split outermost on that axis."""
    rank = len(shape)
    axes: List[List[Any]] = [[] for _ in range(rank)]
    partial: List[DeviceAxis] = []
    reduce = None
    if stream is not None:
        axes[stream[0]].append(Stream(stream[1]))
    for p, axis, size in zip(layout, device_axes(mesh), mesh.shape):
        if isinstance(p, Shard):
            d = p.dim + rank if p.dim < 0 else p.dim
            if not 0 <= d < rank:
                raise ValueError(f"{what}: {p!r} of a rank-{rank} tensor (shape {list(shape)})")
            axes[d].append(axis)
            chunks = int(np.prod([s for s, a in zip(mesh.shape, device_axes(mesh)) if a in axes[d]]))
            if stream is not None and stream[0] == d:
                chunks *= stream[1]
            if shape[d] % chunks:
                raise ValueError(
                    f"{what}: {p!r} does not divide: axis {d} of shape {list(shape)} has extent {shape[d]}, "
                    f"not a multiple of {chunks} (the devices{' and stream chunks' if stream and stream[0] == d else ''} it is split over)"
                )
        elif isinstance(p, Partial):
            if reduce is not None and reduce != _REDUCE[p.reduce_op]:
                raise ValueError(f"{what}: partial over several mesh axes with different reductions")
            partial.append(axis)
            reduce = _REDUCE[p.reduce_op]
    if stream is not None and shape[stream[0]] % stream[1]:
        raise ValueError(f"{what}: Stream({stream[1]}) does not divide axis {stream[0]} of shape {list(shape)}")
    return Sharding(axes, partial, reduce or "sum")


def sharding_kwargs(s: Sharding) -> Dict[str, Any]:
    """`s` as the `splits=`/`partial=`/`reduce=` keywords of a FusionDefinition op."""
    kw: Dict[str, Any] = {"splits": s.axes}
    if s.partial_axes:
        kw["partial"] = s.partial_axes
        kw["reduce"] = s.reduce
    return kw


# -- parallel styles ---------------------------------------------------------------------------


def _tuple(x: Any) -> Optional[Tuple[Any, ...]]:
    if x is None:
        return None
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


class ParallelStyle:
    """A tensor-parallel style of one module (the counterpart of torch's `ParallelStyle`)."""

    name = "ParallelStyle"


class ColwiseParallel(ParallelStyle):
    """Column-parallel `nn.Linear`: weight `Shard(0)`, bias `Shard(0)`; its input is
    `input_layouts` (default `Replicate()`) and is used replicated; its output is
    `output_layouts` (default `Shard(-1)`). `use_local_output` has no effect (fuser's values
    are global)."""

    name = "ColwiseParallel"

    def __init__(self, *, input_layouts: Any = None, output_layouts: Any = None, use_local_output: bool = True) -> None:
        self.input_layouts = (input_layouts if input_layouts is not None else Replicate(),)
        self.output_layouts = (output_layouts if output_layouts is not None else Shard(-1),)
        self.desired_input_layouts = (Replicate(),)
        self.use_local_output = use_local_output


class RowwiseParallel(ParallelStyle):
    """Row-parallel `nn.Linear`: weight `Shard(1)`, bias replicated; its input is
    `input_layouts` (default `Shard(-1)`); its output is `output_layouts` (default
    `Replicate()`: an allreduce of the partial sums; `Shard(1)` under sequence parallelism: a
    reduce-scatter)."""

    name = "RowwiseParallel"

    def __init__(self, *, input_layouts: Any = None, output_layouts: Any = None, use_local_output: bool = True) -> None:
        self.input_layouts = (input_layouts if input_layouts is not None else Shard(-1),)
        self.output_layouts = (output_layouts if output_layouts is not None else Replicate(),)
        self.desired_input_layouts = (Shard(-1),)
        self.use_local_output = use_local_output


class SequenceParallel(ParallelStyle):
    """Sequence parallelism of a module that computes per position (a norm, dropout): its
    inputs and outputs are sharded on `sequence_dim`."""

    name = "SequenceParallel"

    def __init__(self, *, sequence_dim: int = 1, use_local_output: bool = False) -> None:
        self.sequence_sharding = (Shard(sequence_dim),)
        self.use_local_output = use_local_output


class PrepareModuleInput(ParallelStyle):
    """The layouts of a module's positional inputs as they arrive (`input_layouts`) and as the
    module uses them (`desired_input_layouts`, a resharding where they differ); `None` entries
    leave an input alone. Keyword inputs (`input_kwarg_layouts`) are not supported."""

    name = "PrepareModuleInput"

    def __init__(
        self,
        *,
        input_layouts: Any = None,
        desired_input_layouts: Any = None,
        input_kwarg_layouts: Any = None,
        desired_input_kwarg_layouts: Any = None,
        use_local_output: bool = False,
    ) -> None:
        self.input_layouts = _tuple(input_layouts)
        self.desired_input_layouts = _tuple(desired_input_layouts)
        self.input_kwarg_layouts = input_kwarg_layouts or {}
        self.desired_input_kwarg_layouts = desired_input_kwarg_layouts or {}
        self.use_local_output = use_local_output


class PrepareModuleOutput(ParallelStyle):
    """The layouts of a module's outputs as it produces them (`output_layouts`) and as the
    rest of the program uses them (`desired_output_layouts`, a resharding where they
    differ)."""

    name = "PrepareModuleOutput"

    def __init__(self, *, output_layouts: Any, desired_output_layouts: Any, use_local_output: bool = True) -> None:
        self.output_layouts = _tuple(output_layouts)
        self.desired_output_layouts = _tuple(desired_output_layouts)
        self.use_local_output = use_local_output


_STYLES = {c.name: c for c in (ColwiseParallel, RowwiseParallel, SequenceParallel, PrepareModuleInput, PrepareModuleOutput)}


@dataclass
class Style:
    """A style resolved for one module: its kind and layouts (Placements or None per
    positional input/output)."""

    kind: str
    given_in: Tuple[Optional[Placement], ...] = ()
    desired_in: Tuple[Optional[Placement], ...] = ()
    given_out: Tuple[Optional[Placement], ...] = ()
    desired_out: Tuple[Optional[Placement], ...] = ()
    #: Sequence parallelism: every input/output gets the same layout (any count).
    all_same: bool = False


def style_of(s: Any, what: str) -> Style:
    """`s` (fuser's style or torch's `torch.distributed.tensor.parallel` one) resolved."""
    kind = type(s).__name__
    if not isinstance(s, ParallelStyle) and kind not in _STYLES:
        raise ValueError(
            f"{what}: {s!r} is not a parallel style (ColwiseParallel, RowwiseParallel, SequenceParallel, "
            "PrepareModuleInput, PrepareModuleOutput from fuser.torch or torch.distributed.tensor.parallel)"
        )
    if kind not in _STYLES:
        raise ValueError(f"{what}: the style {kind} is not supported")

    def lay(values: Any, field_name: str) -> Tuple[Optional[Placement], ...]:
        values = _tuple(values) or ()
        return tuple(None if v is None else placement(v, f"{what}: {field_name}") for v in values)

    if kind in ("ColwiseParallel", "RowwiseParallel"):
        if getattr(s, "input_layouts", None) is None or getattr(s, "output_layouts", None) is None:
            raise ValueError(f"{what}: {kind} without input_layouts/output_layouts attributes")
        default_desired = (Replicate(),) if kind == "ColwiseParallel" else (Shard(-1),)
        desired = getattr(s, "desired_input_layouts", None) or default_desired
        return Style(kind, lay(s.input_layouts, "input_layouts"), lay(desired, "desired_input_layouts"),
                     lay(s.output_layouts, "output_layouts"), ())
    if kind == "SequenceParallel":
        seq = lay(getattr(s, "sequence_sharding", None) or (Shard(getattr(s, "sequence_dim", 1)),), "sequence_dim")
        return Style(kind, seq, (), seq, (), all_same=True)
    if kind == "PrepareModuleInput":
        if getattr(s, "input_kwarg_layouts", None) or getattr(s, "desired_input_kwarg_layouts", None):
            raise ValueError(f"{what}: PrepareModuleInput with input_kwarg_layouts is not supported (positional inputs only)")
        given, desired = lay(s.input_layouts, "input_layouts"), lay(s.desired_input_layouts, "desired_input_layouts")
        if desired and len(given) != len(desired):
            raise ValueError(f"{what}: input_layouts and desired_input_layouts have different lengths ({len(given)}, {len(desired)})")
        return Style(kind, given, desired, (), ())
    given, desired = lay(s.output_layouts, "output_layouts"), lay(s.desired_output_layouts, "desired_output_layouts")
    if len(given) != len(desired):
        raise ValueError(f"{what}: output_layouts and desired_output_layouts have different lengths ({len(given)}, {len(desired)})")
    return Style(kind, (), (), given, desired)


# -- resolving a plan --------------------------------------------------------------------------


@dataclass
class Resolved:
    """Where the placements and the plan put layouts in the exported graph.

    - `inputs`: graph input node name -> Sharding (placeholders: parameters, user inputs);
    - `nodes`: node name -> Sharding of the node's result (the ops it emits with that rank);
    - `converts`: (module fqn, node name) -> Sharding of the value as the module's nodes use
      it (`desired_input_layouts`); `out_converts`: the same for consumers outside the module
      (`desired_output_layouts`);
    - `outputs`: graph output position -> Sharding (`output_placements`);
    - `entries`: (module fqn, style kind, source pattern) per module of the plan;
    - `origin`: node name -> what fixed its layout (for messages and the report).
    """

    mesh: Mesh
    inputs: Dict[str, Sharding] = field(default_factory=dict)
    nodes: Dict[str, Sharding] = field(default_factory=dict)
    converts: Dict[Tuple[str, str], Sharding] = field(default_factory=dict)
    out_converts: Dict[Tuple[str, str], Sharding] = field(default_factory=dict)
    outputs: Dict[int, Sharding] = field(default_factory=dict)
    entries: List[Tuple[str, str, str]] = field(default_factory=list)
    origin: Dict[str, str] = field(default_factory=dict)


def match_plan(module: Any, plan: Dict[str, Any]) -> List[Tuple[str, str, Style]]:
    """(module fqn, pattern, Style) of every module a plan's pattern matches (fnmatch on the
    fully qualified names of `module.named_modules()`); a pattern that matches nothing, or
    two patterns matching one module, raise ValueError."""
    if not isinstance(plan, dict):
        raise TypeError(f"plan must be a dict of module path pattern -> parallel style, not {type(plan).__name__}")
    names = [n for n, _ in module.named_modules() if n]
    out: List[Tuple[str, str, Style]] = []
    seen: Dict[str, str] = {}
    for pattern, s in plan.items():
        if not isinstance(pattern, str):
            raise TypeError(f"plan: a key must be a module path pattern (str), not {pattern!r}")
        style = style_of(s, f"plan[{pattern!r}]")
        hits = [n for n in names if fnmatch.fnmatchcase(n, pattern)]
        if not hits:
            sample = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
            raise ValueError(f"plan[{pattern!r}]: the pattern matches no submodule of {type(module).__name__} (its modules: {sample})")
        for n in hits:
            if n in seen:
                raise ValueError(f"plan: module {n!r} is matched by both {seen[n]!r} and {pattern!r}")
            seen[n] = pattern
            out.append((n, pattern, style))
    return out


def check_linear(module: Any, fqn: str, style: Style, mesh: Mesh) -> Dict[str, Layout]:
    """The parameter layouts of `ColwiseParallel`/`RowwiseParallel` on the module `fqn`: an
    `nn.Linear` (weight `Shard(0)`/`Shard(1)`, bias `Shard(0)`/replicated) or an
    `nn.Embedding` (table `Shard(1)`/`Shard(0)`, vocabulary-parallel when rowwise)."""
    import torch

    sub = module.get_submodule(fqn)
    rest = (Replicate(),) * (len(mesh.shape) - 1)
    if isinstance(sub, torch.nn.Embedding):
        # Vocabulary-parallel (rowwise: rows of the table) or embedding-dim-parallel (colwise).
        return {f"{fqn}.weight": rest + (Shard(0) if style.kind == "RowwiseParallel" else Shard(1),)}
    if not isinstance(sub, torch.nn.Linear):
        raise ValueError(
            f"plan: module {fqn!r} is a {type(sub).__name__}, but {style.kind} applies to nn.Linear and "
            "nn.Embedding only (use PrepareModuleInput/PrepareModuleOutput or SequenceParallel for other modules)"
        )
    w = Shard(0) if style.kind == "ColwiseParallel" else Shard(1)
    b = Shard(0) if style.kind == "ColwiseParallel" else Replicate()
    out = {f"{fqn}.weight": rest + (w,)}
    if sub.bias is not None:
        out[f"{fqn}.bias"] = rest + (b,)
    return out


def plan_layout(p: Optional[Placement], mesh: Mesh) -> Optional[Layout]:
    """A plan's placement (over the last mesh axis, the others replicated) as a Layout."""
    if p is None:
        return None
    return (Replicate(),) * (len(mesh.shape) - 1) + (p,)


def _tensor_names(args: Sequence[Any]) -> List[Optional[str]]:
    """The graph value names of a module call signature's arguments (None for non-tensors)."""
    return [getattr(a, "name", None) if type(a).__name__ == "TensorArgument" else None for a in args]


def _inside(fqn: str, outer: str) -> bool:
    return fqn == outer or fqn.startswith(outer + ".")


def _shape_of(node: Any) -> List[int]:
    v = node.meta.get("val")
    if isinstance(v, (list, tuple)):
        v = v[0]
    return [int(s) for s in v.shape]


def _is_float(node: Any) -> bool:
    v = node.meta.get("val")
    if isinstance(v, (list, tuple)):
        v = v[0]
    return bool(getattr(v, "is_floating_point", lambda: False)())


def resolve(
    module: Any,
    exported: Any,
    mesh: Mesh,
    placements: Optional[Dict[str, Any]],
    output_placements: Any,
    entries: List[Tuple[str, str, Style]],
    stream: Optional[Tuple[int, int]],
) -> Resolved:
    """The shardings the placements, the output placements and the plan `entries` (from
    `match_plan`) give the exported graph's values; `stream = (n, axis)`: `Stream(n)` on that
    axis of the activations `[..., S, E]` (rank >= axis + 2: user inputs and the values the
    plan fixes) laid out replicated or sharded elsewhere than on their last axis (the residual
    stream; column-parallel outputs are not chunked, as examples/transformer/gen.py --stream). ValueError naming the module and the reason on any conflict."""
    from torch.export.graph_signature import InputKind

    sig = exported.graph_signature
    graph_nodes = {n.name: n for n in exported.graph.nodes}
    label_to_node: Dict[str, str] = {}
    kinds: Dict[str, str] = {}
    for s in sig.input_specs:
        name = getattr(s.arg, "name", None)
        if name is None:
            continue
        label = s.target if s.kind in (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR) else name
        label_to_node[label] = name
        kinds[name] = "user" if s.kind == InputKind.USER_INPUT else "state"
    annot: Dict[str, Layout] = {}
    origin: Dict[str, str] = {}
    out = Resolved(mesh)

    for label, value in (placements or {}).items():
        if label not in label_to_node:
            raise ValueError(
                f"placements[{label!r}]: no input of that name (the program's inputs: {', '.join(label_to_node)})"
            )
        node = label_to_node[label]
        annot[node] = layout_of(value, mesh, f"placements[{label!r}]")
        origin[node] = f"placements[{label!r}]"

    import torch

    for i, (fqn, pattern, style) in enumerate(entries):
        if style.kind == "RowwiseParallel" and isinstance(module.get_submodule(fqn), torch.nn.Embedding):
            # An embedding reads its ids whole (torch's RowwiseParallel does the same).
            entries[i] = (fqn, pattern, Style(style.kind, style.given_in, (Replicate(),), style.given_out, style.desired_out))
    for fqn, pattern, style in entries:
        if style.kind not in ("ColwiseParallel", "RowwiseParallel"):
            continue
        for pname, lay in check_linear(module, fqn, style, mesh).items():
            node = label_to_node.get(pname)
            if node is None:
                raise ValueError(f"plan[{pattern!r}]: the parameter {pname} of {style.kind} {fqn!r} is not an input of the program")
            if node in annot and annot[node] != lay:
                raise ValueError(f"plan[{pattern!r}]: {style.kind} of {fqn!r} shards {pname} as {list(lay)}, but {origin[node]} says {list(annot[node])}")
            annot[node] = lay
            origin[node] = f"{style.kind} of {fqn!r}"
        out.entries.append((fqn, style.kind, pattern))
    for fqn, pattern, style in entries:
        if style.kind not in ("ColwiseParallel", "RowwiseParallel"):
            out.entries.append((fqn, style.kind, pattern))

    calls = {e.fqn: e.signature for e in getattr(exported, "module_call_graph", []) if e.signature is not None}
    sigs: Dict[str, Tuple[List[Optional[str]], List[Optional[str]]]] = {}
    for fqn, pattern, style in entries:
        if fqn not in calls:
            raise ValueError(f"plan[{pattern!r}]: module {fqn!r} is not called by forward (torch.export recorded no call of it)")
        sigs[fqn] = (_tensor_names(calls[fqn].inputs), _tensor_names(calls[fqn].outputs))
    styles = {fqn: (pattern, style) for fqn, pattern, style in entries}
    depth = sorted(styles, key=lambda f: f.count("."))

    def place(p: Optional[Placement]) -> Optional[Layout]:
        return plan_layout(p, mesh)

    # Outputs: the layouts the modules produce (inner modules first), then their conversions.
    for fqn in reversed(depth):
        pattern, style = styles[fqn]
        outs = sigs[fqn][1]
        given = style.given_out * len(outs) if style.all_same else style.given_out
        for j, o in enumerate(outs):
            p = given[j] if j < len(given) else None
            if o is None or p is None:
                continue
            lay = place(p)
            if o in annot and annot[o] != lay:
                raise ValueError(
                    f"plan[{pattern!r}]: {style.kind} of {fqn!r} produces its output #{j} as {p!r}, but {origin[o]} "
                    f"lays it out as {annot[o][-1]!r}"
                )
            annot[o] = lay
            origin[o] = f"{style.kind} of {fqn!r}"
            d = style.desired_out[j] if j < len(style.desired_out) else None
            if d is not None and d != p:
                out.out_converts[(fqn, o)] = place(d)  # type: ignore[assignment]

    converts: Dict[Tuple[str, str], Layout] = {}
    for fqn in depth:
        pattern, style = styles[fqn]
        ins = sigs[fqn][0]
        n_tensors = sum(1 for v in ins if v is not None)
        given = style.given_in * max(n_tensors, 1) if style.all_same else style.given_in
        desired = style.desired_in
        k = 0
        for i, v in enumerate(ins):
            if v is None:
                continue
            position = k if style.all_same else i
            k += 1
            g = given[position] if position < len(given) else None
            d = desired[position] if position < len(desired) else None
            seen, seen_from = annot.get(v), origin.get(v)
            for (pf, name), lay in out.out_converts.items():
                if name == v and not _inside(fqn, pf):
                    seen, seen_from = lay, f"desired_output_layouts of {pf!r}"
            for outer in sorted((e for e in styles if e != fqn and _inside(fqn, e)), key=lambda f: f.count(".")):
                if (outer, v) in converts:
                    seen, seen_from = converts[(outer, v)], f"desired_input_layouts of {outer!r}"
            if g is not None:
                lay = place(g)
                if seen is None:
                    annot[v] = lay  # type: ignore[assignment]
                    origin[v] = f"input_layouts of {fqn!r}"
                    seen = lay
                elif seen != lay:
                    raise ValueError(
                        f"plan[{pattern!r}]: {style.kind} of {fqn!r} expects its input #{i} as {g!r} (input_layouts), but it "
                        f"arrives as {seen[-1]!r} ({seen_from}); say input_layouts={seen[-1]!r} (the input is then "
                        "resharded to what the module uses) or reshard it before with PrepareModuleInput"
                    )
            if d is not None:
                lay = place(d)
                if seen != lay:
                    converts[(fqn, v)] = lay  # type: ignore[assignment]

    def with_stream(name: str, lay: Layout, what: str) -> Sharding:
        node = graph_nodes[name]
        shape = _shape_of(node)
        axis = None
        if stream is not None and kinds.get(name) != "state" and _is_float(node) and len(shape) >= stream[1] + 2:
            last = len(shape) - 1
            sharded_last = any(isinstance(p, Shard) and (p.dim % len(shape)) == last for p in lay)
            if not sharded_last and not any(isinstance(p, Partial) for p in lay):
                axis = (stream[1], stream[0])
        return sharding_of(lay, shape, mesh, what, axis)

    for name, lay in annot.items():
        what = f"{origin[name]} ({name}, shape {_shape_of(graph_nodes[name])})"
        target = out.inputs if graph_nodes[name].op == "placeholder" else out.nodes
        target[name] = with_stream(name, lay, what)
        out.origin[name] = origin[name]
    if stream is not None:
        for name, kind in kinds.items():
            if kind == "user" and name not in out.inputs and len(_shape_of(graph_nodes[name])) >= stream[1] + 2:
                out.inputs[name] = with_stream(name, (Replicate(),) * len(mesh.shape), f"the input {name}")
    for (fqn, name), lay in converts.items():
        out.converts[(fqn, name)] = with_stream(name, lay, f"desired_input_layouts of {fqn!r} ({name})")
    for key, lay in list(out.out_converts.items()):
        out.out_converts[key] = with_stream(key[1], lay, f"desired_output_layouts of {key[0]!r} ({key[1]})")  # type: ignore[arg-type]

    if output_placements is not None:
        outputs = [a for a in exported.graph.output_node().args[0]] if hasattr(exported.graph, "output_node") else list(
            [n for n in exported.graph.nodes if n.op == "output"][0].args[0]
        )
        items = output_placements.items() if isinstance(output_placements, dict) else enumerate(output_placements)
        for j, value in items:
            if not isinstance(j, int) or not 0 <= j < len(outputs):
                raise ValueError(f"output_placements: no output #{j} (the program has {len(outputs)} outputs)")
            if value is None:
                continue
            node = outputs[j]
            out.outputs[j] = with_stream(node.name, layout_of(value, mesh, f"output_placements[{j}]"), f"output_placements[{j}]")
    return out
