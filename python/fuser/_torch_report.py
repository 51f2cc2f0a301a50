"""`ImportedModule.report()`: the GEMMs of an imported program and the collectives its
reshardings became, read from the lowered host program (issue 26, item 2).

Each GEMM's overlap is the lowering's own verdict: the pipeline runs with `report=true`
(`fusion-to-host{report=true}`, one remark per GEMM: `AG+GEMM`, `GEMM+RS`, `GEMM+AR`, or
`none` and why), matched to the GEMMs by source location (the torch module's line, which the
importer puts on every op) in program order. The report also reads the lowered program: each
`host.linear`/`host.matmul` and each `comm.*` collective with its location and the `host.for`
stream loop it runs in, so every resharding is listed with the collective it became; the
shardings of the GEMMs are those after `fusion-propagate-sharding`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

_LOC_ALIAS = re.compile(r'^#(loc\d*) = loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)\)')
_LOC_INLINE = re.compile(r'loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)\)\s*$')
_LOC_REF = re.compile(r"loc\(#(loc\d*)\)\s*$")
_CONST = re.compile(r"^(%\S+) = arith\.constant (\d+) : index")
_FOR = re.compile(r"host\.for %\S+ = %\S+ to (%\S+) step")
_COMM = re.compile(r"comm\.(\w+)")
_TEAM = re.compile(r"team = \[([^\]]*)\]")

Loc = Tuple[str, int]


@dataclass
class _Op:
    name: str
    text: str
    loc: Optional[Loc]
    loop: Optional[int]
    chunks: Optional[int]
    index: int


def _parse(text: str, ops: Tuple[str, ...]) -> List[_Op]:
    """The ops named `ops` (prefixes such as "host.linear", "comm.") of a printed module
    (`debug_info=True`), with their location and enclosing `host.for` loop."""
    aliases: Dict[str, Loc] = {}
    lines = text.splitlines()
    for line in lines:
        m = _LOC_ALIAS.match(line)
        if m:
            aliases[m.group(1)] = (m.group("file"), int(m.group("line")))
    consts: Dict[str, int] = {}
    stack: List[Tuple[Optional[int], Optional[int]]] = []  # (loop id, chunks) of open regions
    loops = 0
    out: List[_Op] = []
    for i, line in enumerate(lines):
        s = line.strip()
        while s.startswith("}"):
            if stack:
                stack.pop()
            s = s[1:].strip()
        m = _CONST.match(s)
        if m:
            consts[m.group(1)] = int(m.group(2))
        body = s.split(" loc(")[0] if " loc(" in s else s
        op = body.split(" = ", 1)[1] if re.match(r"^%[\w:#]+(, %[\w:#]+)* = ", body) else body
        if any(op.startswith(p) for p in ops) and not op.startswith("comm.wait"):
            loc = None
            m = _LOC_INLINE.search(s)
            if m:
                loc = (m.group("file"), int(m.group("line")))
            else:
                m = _LOC_REF.search(s)
                if m:
                    loc = aliases.get(m.group(1))
            loop = next(((lid, n) for lid, n in reversed(stack) if lid is not None), (None, None))
            out.append(_Op(op.split()[0], op, loc, loop[0], loop[1], i))
        if body.endswith("{"):
            m = _FOR.search(body)
            if m:
                loops += 1
                stack.append((loops, consts.get(m.group(1))))
            else:
                stack.append((None, None))
    return out


@dataclass
class Report:
    """What `ImportedModule.report()` returns: `gemms` and `collectives` (lists of dicts),
    the pipeline, and `str(report)` the same as text. `missing` says what the report cannot
    tell."""

    pipeline: str
    gemms: List[Dict[str, Any]] = field(default_factory=list)
    collectives: List[Dict[str, Any]] = field(default_factory=list)
    missing: str = (
        "each GEMM's overlap is fusion-to-host's own report (report=true); a pipeline that takes no "
        "report option gives none, and the overlap is then read from the lowered program's stream loops"
    )

    def text(self) -> str:
        lines = [f"pipeline {self.pipeline}", f"GEMMs ({len(self.gemms)}):"]
        for g in self.gemms:
            lines.append(f"  {g['op']} at {g['source']} in {g['module'] or '?'}: {g['overlap']}")
            if g.get("lowering"):
                lines.append(f"      lowering: {g['lowering']}")
            lines.append(f"      {g['shardings']}")
        lines.append(f"collectives ({len(self.collectives)}):")
        for c in self.collectives:
            where = f"stream loop of {c['chunks']} chunks" if c["chunks"] else "not chunked"
            lines.append(f"  {c['kind']} at {c['source']} in {c['module'] or '?'} (team {c['team']}, {where})")
        lines.append(f"note: {self.missing}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()


def _source(loc: Optional[Loc]) -> str:
    if loc is None:
        return "?"
    return f"{os.path.relpath(loc[0]) if os.path.isabs(loc[0]) else loc[0]}:{loc[1]}"


_GEMM_TARGETS = ("aten.linear.", "aten.mm.", "aten.bmm.", "aten.matmul.", "aten.addmm.")
#: Collectives that feed a GEMM (attached to the next GEMM of their line) and those that
#: finish one (attached to the previous GEMM of their line).
_BEFORE = ("allgather", "all_to_all", "broadcast", "scatter", "collective_permute", "send", "recv")


_REPORTING = re.compile(r"\b(tp-default|tp-overlap-collective|tp-overlap-p2p)(\{([^}]*)\})?")


def with_report(pipeline: str) -> str:
    """`pipeline` with `report=true` on its tp pipelines (the lowering's per-GEMM remarks)."""

    def add(m: "re.Match[str]") -> str:
        opts = m.group(3) or ""
        if re.search(r"\breport=", opts):
            opts = re.sub(r"\breport=\w+", "report=true", opts)
        else:
            opts = f"{opts} report=true".strip()
        return f"{m.group(1)}{{{opts}}}"

    return _REPORTING.sub(add, pipeline)


def report(program: Any, pipeline: str) -> Report:
    """The `Report` of an `ImportedModule` lowered by `pipeline`."""
    from ._torch_import import _module_path, _user_frame

    modules: Dict[Loc, List[str]] = {}
    gemm_modules: Dict[Loc, List[str]] = {}
    for node in program.exported.graph.nodes:
        if node.op != "call_function":
            continue
        frame = _user_frame(node)
        path = _module_path(node)
        if frame is None:
            continue
        key = (os.path.abspath(frame[0]), frame[1])
        if path and path not in modules.setdefault(key, []):
            modules[key].append(path)
        if str(node.target).startswith(_GEMM_TARGETS):
            gemm_modules.setdefault(key, []).append(path)

    def key(loc: Optional[Loc]) -> Optional[Loc]:
        return (os.path.abspath(loc[0]), loc[1]) if loc is not None else None

    fd = program.fd
    propagated = fd.module()
    propagated.run_pipeline("builtin.module(func.func(fusion-propagate-sharding))")
    fusion_gemms = _parse(propagated.print(debug_info=True), ("fusion.linear", "fusion.matmul"))
    lowered = fd.module()
    remarks = lowered.run_pipeline(with_report(pipeline))
    verdicts: Dict[Optional[Loc], List[str]] = {}
    for d in remarks:
        if d.severity == "remark" and d.message.startswith("overlap: "):
            where = key((d.file, d.line)) if d.file else None
            verdicts.setdefault(where, []).append(d.message[len("overlap: "):])
    host = lowered.print(debug_info=True)
    host_ops = _parse(host, ("host.linear", "host.matmul", "comm."))
    out = Report(pipeline)
    collectives = [op for op in host_ops if op.name.startswith("comm.") and op.name not in ("comm.group", "comm.share_handles")]
    gemms = [op for op in host_ops if op.name in ("host.linear", "host.matmul")]

    # The k-th GEMM of a line is the k-th GEMM node of that line (graph order).
    seen: Dict[Optional[Loc], int] = {}
    gemm_module: List[str] = []
    for op in gemms:
        k = seen.get(key(op.loc), 0)
        seen[key(op.loc)] = k + 1
        names = gemm_modules.get(key(op.loc), []) if op.loc is not None else []
        gemm_module.append(names[k] if k < len(names) else ", ".join(modules.get(key(op.loc), [])) if op.loc else "")

    # Each collective of a GEMM's line belongs to the GEMM it feeds or finishes.
    owner: Dict[int, int] = {}
    for ci, c in enumerate(collectives):
        same = [gi for gi, g in enumerate(gemms) if key(g.loc) == key(c.loc) and c.loc is not None]
        kind = c.name[len("comm."):]
        if kind in _BEFORE:
            after = [gi for gi in same if gemms[gi].index > c.index]
            pick = after[0] if after else (same[-1] if same else None)
        else:
            before = [gi for gi in same if gemms[gi].index < c.index]
            pick = before[-1] if before else (same[0] if same else None)
        if pick is not None:
            owner[ci] = pick

    for ci, c in enumerate(collectives):
        team = _TEAM.search(c.text)
        module = gemm_module[owner[ci]] if ci in owner else ", ".join(modules.get(key(c.loc), [])) if c.loc else ""
        out.collectives.append({
            "kind": c.name[len("comm."):],
            "source": _source(c.loc),
            "module": module,
            "team": f"[{team.group(1)}]" if team else "?",
            "chunks": c.chunks,
            "loop": c.loop,
        })
    used = [False] * len(fusion_gemms)
    for gi, op in enumerate(gemms):
        shardings = ""
        for j, f in enumerate(fusion_gemms):
            if not used[j] and key(f.loc) == key(op.loc):
                used[j] = True
                sig = f.text.rsplit(" : ", 1)[-1]
                shardings = re.sub(r"tensor<([^,>]*)(, #fusion\.shard<@\w+, )?", r"<\1 ", sig).replace(">>", ">")
                break
        same_loop = [c for c in collectives if op.loop is not None and c.loop == op.loop]
        mine = [c for ci, c in enumerate(collectives) if owner.get(ci) == gi]
        if same_loop:
            kinds = ", ".join(sorted({c.name[len("comm."):] for c in same_loop}))
            overlap = f"pipelined in a stream loop of {op.chunks} chunks with a {kinds} per chunk"
        elif op.loop is not None:
            overlap = f"in a stream loop of {op.chunks} chunks, no collective in its loop"
        else:
            overlap = "not chunked (no overlap)"
        if mine:
            where = ", ".join(f"{c.name[len('comm.'):]} {'before' if c.index < op.index else 'after'}" for c in mine)
            overlap += f"; its reshardings: {where}"
        said = verdicts.get(key(op.loc), [])
        verdict = said.pop(0) if said else None
        out.gemms.append({
            "lowering": verdict,
            "op": op.name[len("host."):],
            "source": _source(op.loc),
            "module": gemm_module[gi],
            "chunks": op.chunks,
            "collectives_in_loop": [c.name[len("comm."):] for c in same_loop],
            "collectives": [c.name[len("comm."):] for c in mine],
            "overlap": overlap,
            "shardings": shardings,
        })
    return out
