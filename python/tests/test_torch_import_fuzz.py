"""A differential fuzzer for the torch importer (issue 26): random torch modules, drawn from a
seed, made of the ATen ops `fuser.torch.compile` translates (pointwise math with Python
scalars and broadcasting, comparisons and `where`, reductions with and without `keepdim`,
softmax, norms, views, slices, `cat`, linear layers with parameters, dtype casts), imported
and run on fuser's cpu backend against torch eager on the same inputs.

The values stay inside every op's domain by construction (`log` and `sqrt` of `|x| + c`,
`exp` of a `tanh`, divisions by `|y| + c`), so a difference is a translation bug, not a
domain edge. f64 programs must agree to 1e-9 relative to the output's largest magnitude;
programs with an f32 step to 1e-5.

    python python/tests/test_torch_import_fuzz.py --count 500 --seed 1000   # a campaign
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Callable, List, Tuple

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: the torch importer's fuzzer is skipped") \
    if __name__ != "__main__" else __import__("torch")

Shape = Tuple[int, ...]


def _unary(rng: random.Random) -> Tuple[str, Callable]:
    choices = [
        ("neg", lambda x: -x),
        ("abs", torch.abs),
        ("tanh", torch.tanh),
        ("sigmoid", torch.sigmoid),
        ("relu", torch.relu),
        ("silu", torch.nn.functional.silu),
        ("gelu", torch.nn.functional.gelu),
        ("gelu_tanh", lambda x: torch.nn.functional.gelu(x, approximate="tanh")),
        ("exp_tanh", lambda x: torch.exp(torch.tanh(x))),
        ("sqrt_abs", lambda x: torch.sqrt(torch.abs(x) + 0.1)),
        ("log_abs", lambda x: torch.log(torch.abs(x) + 0.5)),
        ("rsqrt_abs", lambda x: torch.rsqrt(torch.abs(x) + 0.5)),
        ("erf", torch.erf),
        ("pow_scalar", lambda x: torch.pow(torch.abs(x) + 0.1, 1.5)),
        ("square", lambda x: x**2),
        ("clamp", lambda x: torch.clamp(x, -0.75, 0.5)),
        ("clamp_min", lambda x: torch.clamp(x, min=-0.25)),
        ("scale", lambda x: x * 2.5),
        ("shift", lambda x: x + 1.25),
        ("rsub", lambda x: 1.0 - x),
        ("div_scalar", lambda x: x / 3.0),
        ("reciprocal", lambda x: torch.reciprocal(torch.abs(x) + 0.5)),
        ("masked_fill", lambda x: x.masked_fill(x < 0, 0.5)),
        ("where_scalar", lambda x: torch.where(x > 0.1, x, -0.5)),
    ]
    return rng.choice(choices)


def _binary(rng: random.Random) -> Tuple[str, Callable]:
    choices = [
        ("add", lambda a, b: a + b),
        ("sub", lambda a, b: a - b),
        ("mul", lambda a, b: a * b),
        ("div", lambda a, b: a / (torch.abs(b) + 0.5)),
        ("maximum", torch.maximum),
        ("minimum", torch.minimum),
        ("where_gt", lambda a, b: torch.where(a > b, a, b)),
        ("where_le", lambda a, b: torch.where(a <= b, a * 2.0, b)),
        ("add_alpha", lambda a, b: torch.add(a, b, alpha=0.5)),
        ("pow_tensor", lambda a, b: torch.pow(torch.abs(a) + 0.5, torch.tanh(b))),
    ]
    return rng.choice(choices)


class RandomModule(torch.nn.Module):
    """A straight-line program of `steps` random ops over a pool of values (the inputs first).
    The plan is drawn at construction; `forward` replays it, so torch.export sees plain ops."""

    def __init__(self, seed: int, steps: int = 8) -> None:
        super().__init__()
        rng = random.Random(seed)
        self.rows, self.cols = rng.choice([2, 3, 4]), rng.choice([3, 5, 8])
        R, C = self.rows, self.cols
        self.dtype = torch.float64
        # Inputs: a full [R, C], and one broadcastable partner of a random kind.
        partner = rng.choice([(R, C), (R, 1), (1, C), (C,)])
        self.input_shapes: List[Shape] = [(R, C), partner]
        shapes: List[Shape] = list(self.input_shapes)
        self.plan: List[Tuple[str, Tuple, Callable]] = []
        self.f32 = False
        n_params = 0
        for _ in range(steps):
            kind = rng.choice(["unary"] * 4 + ["binary"] * 4 + ["reduce", "softmax", "norm", "view", "slice_cat",
                                                               "linear", "cast"])
            i = rng.randrange(len(shapes))
            s = shapes[i]
            if kind == "unary":
                name, fn = _unary(rng)
                self.plan.append((name, (i,), fn))
                shapes.append(s)
            elif kind == "binary":
                partners = [j for j, t in enumerate(shapes) if _broadcasts(s, t)]
                j = rng.choice(partners)
                name, fn = _binary(rng)
                if rng.random() < 0.5:
                    i, j = j, i
                self.plan.append((name, (i, j), fn))
                shapes.append(tuple(torch.broadcast_shapes(shapes[i], shapes[j])))
            elif kind == "reduce" and len(s) >= 1:
                dim = rng.randrange(len(s))
                keep = rng.random() < 0.5
                op = rng.choice(["sum", "mean", "amax", "amin", "var0", "var1"])
                if op.startswith("var") and s[dim] < 2:
                    op = "sum"
                fn = {
                    "sum": lambda x, d=dim, k=keep: torch.sum(x, dim=d, keepdim=k),
                    "mean": lambda x, d=dim, k=keep: torch.mean(x, dim=d, keepdim=k),
                    "amax": lambda x, d=dim, k=keep: torch.amax(x, dim=d, keepdim=k),
                    "amin": lambda x, d=dim, k=keep: torch.amin(x, dim=d, keepdim=k),
                    "var0": lambda x, d=dim, k=keep: torch.var(x, dim=d, keepdim=k, correction=0),
                    "var1": lambda x, d=dim, k=keep: torch.var(x, dim=d, keepdim=k),
                }[op]
                self.plan.append((f"{op}(dim={dim}, keepdim={keep})", (i,), fn))
                shapes.append(tuple(e if a != dim else 1 for a, e in enumerate(s)) if keep
                              else tuple(e for a, e in enumerate(s) if a != dim))
                if not shapes[-1]:  # a 0-d result: keep it as a [1] so that later ops stay tensors
                    self.plan[-1] = (self.plan[-1][0] + " -> [1]", (i,), lambda x, f=fn: f(x).reshape(1))
                    shapes[-1] = (1,)
            elif kind == "softmax" and len(s) >= 1:
                dim = rng.randrange(len(s))
                log = rng.random() < 0.5
                fn = (lambda x, d=dim: torch.log_softmax(x, dim=d)) if log else (lambda x, d=dim: torch.softmax(x, dim=d))
                self.plan.append((f"{'log_' if log else ''}softmax(dim={dim})", (i,), fn))
                shapes.append(s)
            elif kind == "norm" and len(s) >= 1 and s[-1] >= 2:
                n = s[-1]
                w = torch.nn.Parameter(torch.randn(n, dtype=self.dtype, generator=_gen(seed, n_params)))
                b = torch.nn.Parameter(torch.randn(n, dtype=self.dtype, generator=_gen(seed, n_params + 1)))
                self.register_parameter(f"nw{n_params}", w)
                self.register_parameter(f"nb{n_params}", b)
                n_params += 2
                if rng.random() < 0.5:
                    fn = lambda x, w=w, b=b, n=n: torch.nn.functional.layer_norm(x, (n,), w, b, eps=1e-5)  # noqa: E731
                    self.plan.append(("layer_norm", (i,), fn))
                else:
                    fn = lambda x, w=w, n=n: torch.nn.functional.rms_norm(x, (n,), w, eps=1e-5)  # noqa: E731
                    self.plan.append(("rms_norm", (i,), fn))
                shapes.append(s)
            elif kind == "view" and len(s) == 2:
                op = rng.choice(["t", "flat", "unsq_expand", "permute"])
                if op == "t":
                    self.plan.append(("transpose", (i,), lambda x: x.transpose(0, 1)))
                    shapes.append((s[1], s[0]))
                elif op == "flat":
                    self.plan.append(("reshape flat and back", (i,), lambda x, s=s: x.reshape(-1).reshape(s)))
                    shapes.append(s)
                elif op == "permute":
                    self.plan.append(("permute", (i,), lambda x: x.permute(1, 0).contiguous()))
                    shapes.append((s[1], s[0]))
                else:
                    self.plan.append(("unsqueeze+expand+sum", (i,),
                                      lambda x: x.unsqueeze(0).expand(2, *x.shape).sum(0)))
                    shapes.append(s)
            elif kind == "slice_cat" and len(s) >= 1 and s[-1] >= 2:
                k = rng.randrange(1, s[-1])
                self.plan.append((f"slice[..., {k}:] + cat", (i,),
                                  lambda x, k=k: torch.cat([x[..., k:], x[..., :k] * 2.0], dim=-1)))
                shapes.append(s)
            elif kind == "linear" and len(s) >= 1:
                k, n = s[-1], rng.choice([2, 3, 4])
                w = torch.nn.Parameter(torch.randn(n, k, dtype=self.dtype, generator=_gen(seed, n_params)) / k)
                self.register_parameter(f"lw{n_params}", w)
                n_params += 1
                bias = None
                if rng.random() < 0.5:
                    bias = torch.nn.Parameter(torch.randn(n, dtype=self.dtype, generator=_gen(seed, n_params)))
                    self.register_parameter(f"lb{n_params}", bias)
                    n_params += 1
                self.plan.append((f"linear({k}->{n}{', bias' if bias is not None else ''})", (i,),
                                  lambda x, w=w, b=bias: torch.nn.functional.linear(x, w, b)))
                shapes.append(tuple(s[:-1]) + (n,))
            elif kind == "cast":
                self.f32 = True
                self.plan.append(("f32 round trip", (i,), lambda x: x.float().double()))
                shapes.append(s)
            else:
                name, fn = _unary(rng)
                self.plan.append((name, (i,), fn))
                shapes.append(s)
        # Outputs: every computed value no later op reads (so that every op is live: a wrong
        # translation anywhere changes an output).
        used = {a for _, args, _ in self.plan for a in args}
        self.outputs = [v for v in range(2, len(shapes)) if v not in used]

    def forward(self, x: "torch.Tensor", y: "torch.Tensor"):
        pool = [x, y]
        for _, args, fn in self.plan:
            pool.append(fn(*(pool[a] for a in args)))
        return tuple(pool[i] for i in self.outputs)

    def describe(self) -> str:
        return "; ".join(f"v{k + 2} = {name}({', '.join(f'v{a}' for a in args)})"
                         for k, (name, args, _) in enumerate(self.plan)) + f" -> {['v%d' % i for i in self.outputs]}"


def _broadcasts(a: Shape, b: Shape) -> bool:
    try:
        torch.broadcast_shapes(a, b)
        return True
    except RuntimeError:
        return False


def _gen(seed: int, k: int) -> "torch.Generator":
    return torch.Generator().manual_seed(seed * 1000 + k)


def check_seed(seed: int) -> Tuple[bool, str]:
    """Imports and runs the module of `seed`; (passed, a line saying what happened)."""
    import fuser.torch

    m = RandomModule(seed).eval()
    g = torch.Generator().manual_seed(seed)
    inputs = [torch.randn(s, dtype=m.dtype, generator=g) for s in m.input_shapes]
    with torch.no_grad():
        want = m(*inputs)
    try:
        program = fuser.torch.compile(m, tuple(inputs))
        got = program(*inputs)
    except Exception as e:  # noqa: BLE001 - the fuzzer reports any failure with the program
        return False, f"seed {seed}: {type(e).__name__}: {str(e).splitlines()[0][:300]}\n  {m.describe()}"
    got = got if isinstance(got, (tuple, list)) else (got,)
    tol = 1e-5 if m.f32 else 1e-9
    for k, (a, b) in enumerate(zip(got, want)):
        if tuple(a.shape) != tuple(b.shape):
            return False, f"seed {seed}: output {k} has shape {tuple(a.shape)}, torch's {tuple(b.shape)}\n  {m.describe()}"
        scale = max(float(b.abs().max()), 1e-30)
        err = float((a.to(b.dtype) - b).abs().max()) / scale
        if not err <= tol:
            return False, f"seed {seed}: output {k} differs by {err:.3e} (tolerance {tol:g})\n  {m.describe()}"
    return True, f"seed {seed}: pass ({len(m.plan)} ops)"


@pytest.mark.parametrize("seed", range(40))
def test_random_modules_import_and_match_torch(seed):
    ok, line = check_seed(seed)
    assert ok, line


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=0, help="first seed")
    a = p.parse_args(argv)
    failed = []
    for seed in range(a.seed, a.seed + a.count):
        ok, line = check_seed(seed)
        if not ok:
            failed.append(line)
            print(line, flush=True)
    print(f"{a.count - len(failed)} of {a.count} passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
