#!/usr/bin/env python3
"""Checks fusion-autodiff's gradients against torch autograd (issue 25 item 3; docs/dev/autodiff.md,
"How it is checked").

Every mode differentiates a fusion program with
`fuser-opt --pass-pipeline 'builtin.module(fusion-autodiff{func=F})'`, runs the joint function
`@F_vjp` (F's arguments, then one cotangent per float result; F's results, then one gradient per
float argument) with `fuser-run --entry F_vjp`, the values brought in and out as raw files
(`--input-file` / `--output-file`), and compares every gradient with a reference.

  --ops      one tiny f64 program per differentiable op family (elementwise, math, reductions,
             shapes, GEMMs, softmax, norms, dropout, attention, embedding, cross-entropy), run on
             the cpu backend, against torch.autograd.grad with the same inputs and cotangents in
             f64 on the cpu: per gradient max|g - ref| / max|ref|, PASS below 1e-10 (attention:
             1e-6, its log-sum-exp is f32 by fusion.sdpa's definition). Dropout p > 0: torch
             cannot draw fuser's Philox mask, so the mask is read from fuser's own forward output
             (the dropout's result, nonzero inputs) and torch computes x * mask / (1 - p).
             One JSON line per program, then a summary line; exit status 1 on a failure.
  --layer M  a whole layer of gen.py (gpt3, llama or lmloss; its size options --seq, --hidden,
             --heads, --kv-heads, --ffn, --vocab, --placement, --devices pass through; dropout
             p = 0) in --dtype f32/f64/bf16 on --backend cpu/cuda: weights drawn as vs_torch.py
             draws them (torch_layers.py), a random cotangent of each output; fuser's @M_vjp
             against torch autograd on the same values (f64 for f32/f64 programs; f32 from the
             same bf16 values for bf16, and then also torch's own bf16 autograd against that f32
             reference, the error bf16 itself makes). Prints one JSON line: per gradient (x and
             every weight; llama's cos/sin too) ||g - ref|| / ||ref||, PASS below 1e-6 for f64
             (the sdpa's saved log-sum-exp and lmloss' loss are f32 by the programs' definitions),
             1e-4 for f32, 5e-2 for bf16; torch bf16's own error; and the time per iteration of
             fuser's @M_vjp against torch's forward + backward (eager, and torch.compile unless
             --no-compile) in the run's dtype, measured in the same call.
  --smoke    no torch: every --ops program (or, with --layer, the layer; f64 unless --dtype) with
             central differences of fuser's own forward (`fuser-run --entry F` at x +- h d) as
             the reference, along a random direction d per argument. Exercises the whole
             plumbing; test/Run/autodiff/grad-vs-torch-smoke.mlir runs it in the lit suite.

On the device (the lead's commands; fuser binaries built there, e.g. under .gpu/):

  # every op family, cpu backend, f64 (about 10 s: 47 programs; 7 s here with debug binaries)
  python3 examples/transformer/grad_vs_torch.py --fuser-run .gpu/fuser-run --fuser-opt .gpu/fuser-opt \\
      --ops --out $OUT/grad_ops.json
  # the same on the cuda backend's kernels (f64 on the GPU; torch stays on the cpu)
  python3 examples/transformer/grad_vs_torch.py ... --ops --backend cuda --out $OUT/grad_ops_cuda.json
  # GPT-3 175B's layer in bf16 on one H200 (a few minutes: drawing and writing 3.6 GB of weights,
  # fuser's vjp, torch's f32 reference and bf16 autograd, torch.compile)
  python3 examples/transformer/grad_vs_torch.py --fuser-run .gpu/fuser-run --fuser-opt .gpu/fuser-opt \\
      --layer gpt3 --seq 2048 --hidden 12288 --heads 96 --backend cuda --dtype bf16 --out $OUT/grad_gpt3.json
  # Llama 3 70B's layer (GQA) and the LM loss, bf16
  python3 examples/transformer/grad_vs_torch.py ... --layer llama --seq 2048 --hidden 8192 --heads 64 \\
      --kv-heads 8 --ffn 28672 --backend cuda --dtype bf16 --out $OUT/grad_llama.json
  python3 examples/transformer/grad_vs_torch.py ... --layer lmloss --seq 2048 --hidden 8192 --vocab 32768 \\
      --backend cuda --dtype bf16 --out $OUT/grad_lmloss.json
  # small: f64 on the cpu backend (seconds)
  python3 examples/transformer/grad_vs_torch.py ... --layer gpt3 --backend cpu --dtype f64

Without torch (here, CI): python3 examples/transformer/grad_vs_torch.py --smoke
  --fuser-run target/debug/fuser-run --fuser-opt target/debug/fuser-opt
"""

import argparse
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Raw values in and out of fuser-run.


def write_raw(arr, elem, path):
    """Writes a numpy array as fuser-run's raw format of element type `elem` (little-endian,
    row-major); bf16 from float32 values rounded to nearest even."""
    if elem == "bf16":
        bits = np.ascontiguousarray(arr, dtype=np.float32).view(np.uint32).astype(np.uint64)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        rounded.tofile(path)
        return
    np_dtype = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32}[elem]
    np.ascontiguousarray(arr, dtype=np_dtype).tofile(path)


def read_raw(path, elem, shape):
    """The values of a raw file of element type `elem` as a numpy array (bf16 as float32)."""
    if elem == "bf16":
        bits = np.fromfile(path, dtype=np.uint16).astype(np.uint32) << 16
        arr = bits.view(np.float32)
    else:
        arr = np.fromfile(path, dtype={"f64": np.float64, "f32": np.float32, "i64": np.int64}[elem])
    return arr.reshape(shape)


TENSOR = re.compile(r"tensor<((?:[0-9]+x)*)([a-z][a-z0-9]*)")


def parse_type(text):
    """(shape, element type) of a `tensor<...>` type's text."""
    m = TENSOR.match(text.strip())
    if not m:
        raise ValueError(f"not a tensor type: {text}")
    dims = [int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def signature(text, name):
    """The (shape, element type) of each argument and result of `func.func @name` in `text`."""
    m = re.search(r"func\.func @" + re.escape(name) + r"\((.*?)\)\s*->\s*(.*?)\s*(?:attributes .*)?\{\s*$",
                  text, re.M)
    if not m:
        raise ValueError(f"no func.func @{name}")
    args = [parse_type(t) for t in re.findall(r":\s*(tensor<[^,>]*)", m.group(1))]
    results = [parse_type(t) for t in re.findall(r"(tensor<[^,>]*)", m.group(2))]
    return args, results


def fuser_ms(stdout):
    """fuser-run's mean milliseconds per iteration (the slowest rank), or None."""
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        if "mean ms" in line:
            ms = []
            for row in lines[i + 1:]:
                m = re.match(r"\s*[0-9]+\s+([0-9.]+)\s", row)
                if not m:
                    break
                ms.append(float(m.group(1)))
            if ms:
                return max(ms)
    m = re.findall(r"mean\s+([0-9.]+)\s*ms", stdout)
    return float(m[0]) if m else None


class Fuser:
    """fuser-opt and fuser-run, on files in a temporary directory."""

    def __init__(self, args, tmp):
        self.run_bin = args.fuser_run
        self.opt_bin = args.fuser_opt
        self.tmp = tmp
        self.extra = shlex.split(args.fuser_args)
        self.n = 0

    def path(self, name):
        self.n += 1
        return os.path.join(self.tmp, f"{self.n}_{name}")

    def autodiff(self, text, func):
        """The module with @func's @func_vjp, @func_fwd, @func_bwd (their text)."""
        src = self.path(f"{func}.mlir")
        with open(src, "w") as f:
            f.write(text)
        cmd = [self.opt_bin, "--pass-pipeline", f"builtin.module(fusion-autodiff{{func={func}}})", src]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{shlex.join(cmd)}:\n{r.stderr[-3000:]}")
        return r.stdout

    def run(self, module_text, entry, inputs, out_types, backend="cpu", extra=(), timing=None):
        """Runs @entry of `module_text` on `inputs` ([(array, elem)] in argument order; an array
        may instead be a writer callable taking a path) and returns (outputs as numpy arrays of
        the `out_types` [(shape, elem)], fuser-run's stdout)."""
        src = self.path(f"{entry}.mlir")
        with open(src, "w") as f:
            f.write(module_text)
        cmd = [self.run_bin, src, "--entry", entry, "--backend", backend]
        if timing:
            cmd += ["--warmup", str(timing[0]), "--iters", str(timing[1])]
        cmd += list(extra) + self.extra
        for i, (arr, elem) in enumerate(inputs):
            p = self.path(f"in{i}.bin")
            if callable(arr):
                arr(p)
            else:
                write_raw(arr, elem, p)
            cmd += ["--input-file", f"{i}={p}"]
        outs = []
        for i in range(len(out_types)):
            outs.append(self.path(f"out{i}.bin"))
            cmd += ["--output-file", f"{i}={outs[i]}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{shlex.join(cmd)}:\n{(r.stderr or r.stdout)[-3000:]}")
        values = [read_raw(p, elem, shape) for p, (shape, elem) in zip(outs, out_types)]
        for p in outs:
            os.remove(p)
        return values, r.stdout


# ---------------------------------------------------------------------------------------------
# The op programs of --ops and --smoke.


def T(shape, elem="f64"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


class Gen:
    """How one argument's values are drawn (numpy)."""

    def __init__(self, kind, lo=0.0, hi=0.0, fixed=None):
        self.kind, self.lo, self.hi, self.fixed = kind, lo, hi, fixed

    def draw(self, rng, shape, elem):
        if self.kind == "range":
            return rng.uniform(self.lo, self.hi, shape)
        if self.kind == "away":  # |v| in [lo, hi), random sign: away from the kink at 0
            return rng.uniform(self.lo, self.hi, shape) * rng.choice([-1.0, 1.0], shape)
        if self.kind == "int":
            v = rng.integers(int(self.lo), int(self.hi), shape).astype(np.int64)
            if self.fixed is not None:  # some elements set (an ignore_index row)
                v.reshape(-1)[: len(self.fixed)] = self.fixed
            return v
        if self.kind == "const":
            return np.full(shape, self.lo, dtype=np.int64 if elem == "i64" else np.float64)
        raise ValueError(self.kind)


R = Gen("range", -1.5, 1.5)
POS = Gen("range", 0.5, 2.0)
AWAY = Gen("away", 0.2, 1.5)


class Case:
    """A tiny f64 program `@f` and the same computation in torch (`torch_fn(*tensors, outs=)`
    gives its results; `outs` are fuser's forward results, for dropout's mask)."""

    def __init__(self, name, args, results, body, torch_fn, gens, tol=1e-10, note=None):
        self.name, self.args, self.results, self.body = name, args, results, body
        self.torch_fn, self.gens, self.tol, self.note = torch_fn, gens, tol, note

    def text(self):
        sig = ", ".join(f"%{n}: {T(s, e)}" for n, s, e in self.args)
        res = ", ".join(T(s, e) for s, e in self.results)
        lines = [f"func.func @f({sig}) -> ({res}) {{"] + ["  " + ln for ln in self.body]
        return "\n".join(lines) + "\n}\n"


def op(v, text, ins, out):
    """`%v = fusion.TEXT : (ins) -> out` with types from shapes."""
    return f"%{v} = fusion.{text} : ({', '.join(T(s, e) for s, e in ins)}) -> {T(*out) if isinstance(out, tuple) else T(out)}"


def ret(*vals):
    return "return " + ", ".join(f"%{v}" for v, _ in vals) + " : " + ", ".join(T(s) for _, s in vals)


# torch and torch.nn.functional, imported by load_torch() (--ops, --layer): the programs below are
# built without torch (--smoke runs them too); their torch functions use these at call time.
torch = None
F = None


def load_torch():
    global torch, F
    try:
        import torch as torch_
        import torch.nn.functional as F_
    except ImportError:
        raise SystemExit("grad_vs_torch.py: torch is not installed (--smoke checks the fuser side without it)")
    torch, F = torch_, F_


def cases():
    """The op programs: every differentiable op family of fusion-autodiff's rules."""
    out = []
    S = [3, 4]
    f64 = lambda s: (s, "f64")  # noqa: E731

    def binary(name, expr, gens):
        out.append(Case(name, [("a", S, "f64"), ("b", S, "f64")], [f64(S)],
                        [op("y", f"{name} %a, %b", [f64(S), f64(S)], S), ret(("y", S))], expr, gens))

    binary("add", lambda a, b, outs: a + b, [R, R])
    binary("sub", lambda a, b, outs: a - b, [R, R])
    binary("mul", lambda a, b, outs: a * b, [R, R])
    binary("div", lambda a, b, outs: a / b, [R, AWAY])
    binary("maximum", lambda a, b, outs: torch.maximum(a, b), [R, R])
    binary("minimum", lambda a, b, outs: torch.minimum(a, b), [R, R])
    binary("pow", lambda a, b, outs: torch.pow(a, b), [POS, R])
    unary = [
        ("neg", lambda x: torch.neg(x), R), ("exp", lambda x: torch.exp(x), R), ("log", lambda x: torch.log(x), POS),
        ("tanh", lambda x: torch.tanh(x), R), ("erf", lambda x: torch.erf(x), R),
        ("sqrt", lambda x: torch.sqrt(x), POS), ("rsqrt", lambda x: torch.rsqrt(x), POS),
        ("sigmoid", lambda x: torch.sigmoid(x), R), ("abs", lambda x: torch.abs(x), AWAY),
        ("reciprocal", lambda x: torch.reciprocal(x), Gen("away", 0.5, 1.5)),
        ("silu", lambda x: F.silu(x), R), ("gelu", lambda x: F.gelu(x), R),
    ]
    for name, fn, g in unary:
        out.append(Case(name, [("x", S, "f64")], [f64(S)],
                        [op("y", f"{name} %x", [f64(S)], S), ret(("y", S))], lambda x, outs, fn=fn: fn(x), [g]))
    out.append(Case("gelu_tanh", [("x", S, "f64")], [f64(S)],
                    [op("y", 'gelu %x {approximate = "tanh"}', [f64(S)], S), ret(("y", S))],
                    lambda x, outs: F.gelu(x, approximate="tanh"), [R]))
    out.append(Case("where", [("a", S, "f64"), ("b", S, "f64")], [f64(S)], [
        op("c", "compare lt %a, %b", [f64(S), f64(S)], (S, "i1")),
        op("w", "where %c, %a, %b", [(S, "i1"), f64(S), f64(S)], S),
        op("y", "mul %w, %a", [f64(S), f64(S)], S), ret(("y", S))],
        lambda a, b, outs: torch.where(a < b, a, b) * a, [R, R]))
    # Reductions over axis 1 of [2, 3, 4].
    X, Y, K = [2, 3, 4], [2, 4], [2, 1, 4]
    red = [
        ("sum", "sum %x dims = [1]", Y, lambda x: x.sum(1)),
        ("sum_keep_dims", "sum %x dims = [1] keep_dims", K, lambda x: x.sum(1, keepdim=True)),
        ("mean", "mean %x dims = [1]", Y, lambda x: x.mean(1)),
        ("mean_all", "mean %x dims = [0, 1, 2]", [], lambda x: x.mean()),
        ("max", "max %x dims = [1]", Y, lambda x: x.amax(1)),
        ("min", "min %x dims = [1] keep_dims", K, lambda x: x.amin(1, keepdim=True)),
        ("var", "var %x dims = [1]", Y, lambda x: torch.var(x, 1)),
        ("var_correction0", "var %x dims = [1] {correction = 0 : i64}", Y, lambda x: torch.var(x, 1, correction=0)),
    ]
    for name, text, shape, fn in red:
        out.append(Case(name, [("x", X, "f64")], [f64(shape)],
                        [op("y", text, [f64(X)], shape), ret(("y", shape))], lambda x, outs, fn=fn: fn(x), [R]))
    # Shapes.
    out.append(Case("broadcast", [("x", X, "f64"), ("v", [2, 4], "f64"), ("u", [4], "f64")], [f64(X)], [
        op("b", "broadcast %v dims = [1]", [f64([2, 4])], X),
        op("c", "broadcast %u dims = [0, 1]", [f64([4])], X),
        op("m", "mul %x, %b", [f64(X), f64(X)], X),
        op("y", "mul %m, %c", [f64(X), f64(X)], X), ret(("y", X))],
        lambda x, v, u, outs: x * v.unsqueeze(1).expand(2, 3, 4) * u.expand(2, 3, 4), [R, R, R]))
    out.append(Case("reshape", [("x", X, "f64"), ("w", [4, 6], "f64")], [f64([4, 6])], [
        op("r", "reshape %x", [f64(X)], [4, 6]),
        op("y", "mul %r, %w", [f64([4, 6]), f64([4, 6])], [4, 6]), ret(("y", [4, 6]))],
        lambda x, w, outs: x.reshape(4, 6) * w, [R, R]))
    out.append(Case("permute", [("x", X, "f64"), ("w", [4, 2, 3], "f64")], [f64([4, 2, 3])], [
        op("p", "permute %x dims = [2, 0, 1]", [f64(X)], [4, 2, 3]),
        op("y", "mul %p, %w", [f64([4, 2, 3]), f64([4, 2, 3])], [4, 2, 3]), ret(("y", [4, 2, 3]))],
        lambda x, w, outs: x.permute(2, 0, 1) * w, [R, R]))
    out.append(Case("slice", [("x", [5, 9], "f64")], [f64([2, 3]), f64([2, 3]), f64([5, 1]), f64([1, 2])], [
        op("s", "slice %x offsets = [1, 2] sizes = [2, 3]", [f64([5, 9])], [2, 3]),
        op("e", "exp %s", [f64([2, 3])], [2, 3]),
        op("t", "slice %x offsets = [1, 1] sizes = [2, 3] strides = [2, 3]", [f64([5, 9])], [2, 3]),
        op("u", "slice %x offsets = [0, 8] sizes = [5, 1] strides = [1, 4]", [f64([5, 9])], [5, 1]),
        op("v", "slice %x offsets = [0, 0] sizes = [1, 2] strides = [5, 8]", [f64([5, 9])], [1, 2]),
        op("w", "mul %v, %v", [f64([1, 2]), f64([1, 2])], [1, 2]),
        ret(("e", [2, 3]), ("t", [2, 3]), ("u", [5, 1]), ("w", [1, 2]))],
        lambda x, outs: (torch.exp(x[1:3, 2:5]), x[1:5:2, 1:9:3], x[0:5, 8:9], x[0:1, 0:9:8] * x[0:1, 0:9:8]), [R]))
    out.append(Case("concat", [("x", [4, 6], "f64"), ("y", [4, 2], "f64")], [f64([4, 5])], [
        op("t", "slice %x offsets = [0, 0] sizes = [4, 3]", [f64([4, 6])], [4, 3]),
        op("c", "concat %y, %t dim = 1", [f64([4, 2]), f64([4, 3])], [4, 5]),
        op("m", "mul %c, %c", [f64([4, 5]), f64([4, 5])], [4, 5]), ret(("m", [4, 5]))],
        lambda x, y, outs: torch.cat([y, x[:, 0:3]], 1) ** 2, [R, R]))
    # GEMMs.
    out.append(Case("matmul", [("a", [3, 4], "f64"), ("b", [4, 5], "f64"), ("c", [2, 3, 4], "f64"), ("d", [2, 4, 5], "f64")],
                    [f64([3, 5]), f64([2, 3, 5]), f64([2, 3, 5])], [
        op("m", "matmul %a, %b", [f64([3, 4]), f64([4, 5])], [3, 5]),
        op("n", "matmul %c, %b", [f64([2, 3, 4]), f64([4, 5])], [2, 3, 5]),
        op("o", "matmul %c, %d", [f64([2, 3, 4]), f64([2, 4, 5])], [2, 3, 5]),
        ret(("m", [3, 5]), ("n", [2, 3, 5]), ("o", [2, 3, 5]))],
        lambda a, b, c, d, outs: (a @ b, torch.matmul(c, b), torch.matmul(c, d)), [R, R, R, R]))
    out.append(Case("linear", [("x", [3, 4], "f64"), ("w", [5, 4], "f64"), ("b", [5], "f64"), ("z", [2, 3, 4], "f64")],
                    [f64([3, 5]), f64([2, 3, 5]), f64([3, 5])], [
        op("y", "linear %x, %w, %b", [f64([3, 4]), f64([5, 4]), f64([5])], [3, 5]),
        op("u", "linear %z, %w, %b", [f64([2, 3, 4]), f64([5, 4]), f64([5])], [2, 3, 5]),
        op("v", "linear %x, %w", [f64([3, 4]), f64([5, 4])], [3, 5]),
        ret(("y", [3, 5]), ("u", [2, 3, 5]), ("v", [3, 5]))],
        lambda x, w, b, z, outs: (F.linear(x, w, b), F.linear(z, w, b), F.linear(x, w)), [R, R, R, R]))
    # Softmaxes.
    for name in ["softmax", "log_softmax"]:
        out.append(Case(name, [("x", S, "f64")], [f64(S), f64(S)], [
            op("y", f"{name} %x dims = [1]", [f64(S)], S),
            op("z", f"{name} %x dims = [0]", [f64(S)], S), ret(("y", S), ("z", S))],
            lambda x, outs, name=name: (getattr(torch, name)(x, 1), getattr(torch, name)(x, 0)), [R]))
    # Norms.
    out.append(Case("layer_norm", [("x", X, "f64"), ("w", [4], "f64"), ("b", [4], "f64")], [f64(X), f64(X)], [
        op("y", "layer_norm %x weight %w bias %b dims = [2] {epsilon = 1.000000e-05 : f64}",
           [f64(X), f64([4]), f64([4])], X),
        op("z", "layer_norm %x dims = [1, 2] {epsilon = 1.000000e-03 : f64}", [f64(X)], X),
        ret(("y", X), ("z", X))],
        lambda x, w, b, outs: (F.layer_norm(x, (4,), w, b, 1e-5), F.layer_norm(x, (3, 4), eps=1e-3)), [R, R, R]))
    out.append(Case("rms_norm", [("x", S, "f64"), ("w", [4], "f64")], [f64(S), f64(S)], [
        op("y", "rms_norm %x weight %w dims = [1] {epsilon = 1.000000e-06 : f64}", [f64(S), f64([4])], S),
        op("z", "rms_norm %x dims = [0, 1] {epsilon = 1.000000e-05 : f64}", [f64(S)], S),
        ret(("y", S), ("z", S))],
        lambda x, w, outs: (F.rms_norm(x, (4,), w, 1e-6), F.rms_norm(x, (3, 4), eps=1e-5)), [R, R]))
    # Dropout: p = 0 is the identity (torch's own dropout op); p = 0.3 with the mask read from
    # fuser's forward result (x away from 0: a kept element is nonzero).
    D, i64 = [4, 8], ([], "i64")
    for name, p in [("dropout_p0", 0.0), ("dropout_p0.3", 0.3)]:
        def fn(x, seed, offset, outs, p=p):
            if p == 0.0:
                d = F.dropout(x, p=0.0, training=True)
            else:
                mask = torch.from_numpy(outs[0] != 0).to(x.dtype)
                d = x * mask / (1 - p)
            return d, d * x
        out.append(Case(name, [("x", D, "f64"), ("seed", [], "i64"), ("offset", [], "i64")], [f64(D), f64(D)], [
            op("d", f"dropout %x, %seed, %offset p = {p:e}", [f64(D), i64, i64], D),
            op("y", "mul %d, %x", [f64(D), f64(D)], D), ret(("d", D), ("y", D))],
            fn, [AWAY, Gen("const", 1234), Gen("const", 7)],
            note=None if p == 0 else "torch cannot draw fuser's Philox mask: mask = (fuser's dropout result != 0)"))

    # Attention: causal grouped-query (4 query heads over 2 kv heads; repeat_interleave is the
    # grouping: query head h reads kv head h // 2), and non-causal multi-head with a scale and
    # more keys than queries.
    def gqa(q, k, v, outs):
        g = q.shape[1] // k.shape[1]
        return F.scaled_dot_product_attention(q, k.repeat_interleave(g, 1), v.repeat_interleave(g, 1), is_causal=True)
    Q, KV = [1, 4, 5, 4], [1, 2, 5, 4]
    note = "fusion.sdpa's log-sum-exp (saved for the backward) is f32 by definition: tolerance 1e-6"
    out.append(Case("sdpa_causal_gqa", [("q", Q, "f64"), ("k", KV, "f64"), ("v", KV, "f64")], [f64(Q)], [
        op("o", "sdpa %q, %k, %v causal", [f64(Q), f64(KV), f64(KV)], Q), ret(("o", Q))],
        gqa, [R, R, R], tol=1e-6, note=note))
    Q2, KV2 = [2, 2, 3, 4], [2, 2, 5, 4]
    out.append(Case("sdpa_scale", [("q", Q2, "f64"), ("k", KV2, "f64"), ("v", KV2, "f64")], [f64(Q2)], [
        op("o", "sdpa %q, %k, %v scale = 7.000000e-01", [f64(Q2), f64(KV2), f64(KV2)], Q2), ret(("o", Q2))],
        lambda q, k, v, outs: F.scaled_dot_product_attention(q, k, v, scale=0.7), [R, R, R], tol=1e-6, note=note))
    # Lookup and loss.
    out.append(Case("embedding", [("t", [5, 3], "f64"), ("ids", [2, 4], "i64")], [f64([2, 4, 3])], [
        op("e", "embedding %t, %ids", [f64([5, 3]), ([2, 4], "i64")], [2, 4, 3]),
        op("s", "mul %e, %e", [f64([2, 4, 3]), f64([2, 4, 3])], [2, 4, 3]), ret(("s", [2, 4, 3]))],
        lambda t, ids, outs: F.embedding(ids, t) ** 2, [R, Gen("int", 0, 5, fixed=[0, 4, 0])]))
    out.append(Case("cross_entropy", [("x", [6, 5], "f64"), ("labels", [6], "i64")], [f64([6])], [
        op("l", "cross_entropy %x, %labels", [f64([6, 5]), ([6], "i64")], [6]), ret(("l", [6]))],
        lambda x, labels, outs: F.cross_entropy(x, labels, reduction="none"), [Gen("range", -4, 4), Gen("int", 0, 5)]))
    out.append(Case("cross_entropy_ignore_index", [("x", [8, 4], "f64"), ("labels", [8], "i64")], [f64([8])], [
        op("l", "cross_entropy %x, %labels {ignore_index = 1 : i64}", [f64([8, 4]), ([8], "i64")], [8]),
        ret(("l", [8]))],
        lambda x, labels, outs: F.cross_entropy(x, labels, reduction="none", ignore_index=1),
        [R, Gen("int", 0, 4, fixed=[1, 0, 1])]))
    return out


def errors(got, ref):
    """(max|got - ref| / max|ref|, ||got - ref|| / ||ref||) in f64."""
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    d = np.abs(got - ref)
    worst = float(d.max() / max(np.abs(ref).max(), 1e-300)) if d.size else 0.0
    norm = float(np.linalg.norm(d) / max(np.linalg.norm(ref), 1e-300)) if d.size else 0.0
    return worst, norm


def run_vjp(fuser, case, rng, backend="cpu"):
    """Differentiates `case`, runs @f_vjp on drawn inputs and cotangents; returns (module text,
    inputs, cotangents, forward results, gradients of the float arguments)."""
    module = fuser.autodiff(case.text(), "f")
    inputs = [g.draw(rng, s, e) for (_, s, e), g in zip(case.args, case.gens)]
    cots = [rng.uniform(-1, 1, s) for s, e in case.results if e != "i64"]
    float_args = [i for i, (_, _, e) in enumerate(case.args) if e != "i64"]
    out_types = list(case.results) + [(case.args[i][1], case.args[i][2]) for i in float_args]
    ins = [(x, e) for x, (_, _, e) in zip(inputs, case.args)] + [(c, "f64") for c in cots]
    outs, _ = fuser.run(module, "f_vjp", ins, out_types, backend=backend)
    return module, inputs, cots, outs[: len(case.results)], outs[len(case.results):], float_args


def check_ops(args, fuser, emit):
    load_torch()
    torch.set_default_dtype(torch.float64)
    rng = np.random.default_rng(args.seed)
    failed = []
    selected = [c for c in cases() if not args.only or c.name in args.only.split(",")]
    for case in selected:
        row = {"op": case.name, "backend": args.backend, "tol": case.tol}
        try:
            _, inputs, cots, fwd, grads, float_args = run_vjp(fuser, case, rng, args.backend)
            ts = [torch.from_numpy(np.array(x)) for x in inputs]
            for i in float_args:
                ts[i].requires_grad_(True)
            res = case.torch_fn(*ts, outs=fwd)
            res = list(res) if isinstance(res, (tuple, list)) else [res]
            wrt = [ts[i] for i in float_args]
            refs = torch.autograd.grad(res, wrt, [torch.from_numpy(c) for c in cots], allow_unused=True)
            row["outputs"] = [errors(f, r.detach().numpy())[0] for f, r in zip(fwd, res)]
            row["grads"] = {}
            ok = all(e < case.tol for e in row["outputs"])
            for i, g, r in zip(float_args, grads, refs):
                ref = np.zeros(g.shape) if r is None else r.numpy()
                worst, norm = errors(g, ref)
                row["grads"][case.args[i][0]] = {"max_rel_err": worst, "rel_err": norm}
                ok = ok and worst < case.tol and math.isfinite(worst)
        except Exception as e:  # noqa: BLE001
            row["error"] = str(e)[-2000:]
            ok = False
        row["pass"] = ok
        if case.note:
            row["note"] = case.note
        if not ok:
            failed.append(case.name)
        emit(row)
    emit({"ops": len(selected), "passed": len(selected) - len(failed), "failed": failed})
    return 1 if failed or not selected else 0


def check_smoke(args, fuser, emit):
    """Directional central differences of fuser's forward, <c, (f(x + h d) - f(x - h d)) / 2h>,
    against <grad_i, d> for each float argument i alone."""
    rng = np.random.default_rng(args.seed)
    failed = []
    selected = [c for c in cases() if not args.only or c.name in args.only.split(",")]
    h = 1e-6
    for case in selected:
        row = {"op": case.name, "reference": "central differences of fuser-run --entry f", "grads": {}}
        try:
            module, inputs, cots, fwd, grads, float_args = run_vjp(fuser, case, rng)
            arg_elems = [e for _, _, e in case.args]

            def forward(xs):
                outs, _ = fuser.run(module, "f", list(zip(xs, arg_elems)), case.results)
                return outs

            same = forward(inputs)
            row["forward_matches_vjp"] = all(np.array_equal(a, b) for a, b in zip(same, fwd))
            ok = row["forward_matches_vjp"]
            for i, g in zip(float_args, grads):
                d = rng.uniform(-1, 1, inputs[i].shape)
                at = []
                for sign in (1, -1):
                    xs = list(inputs)
                    xs[i] = inputs[i] + sign * h * d
                    at.append(sum(float(np.sum(o * c)) for o, c in zip(forward(xs), cots)))
                fd = (at[0] - at[1]) / (2 * h)
                an = float(np.sum(g * d))
                err = abs(fd - an) / max(abs(an), 1e-3)
                row["grads"][case.args[i][0]] = {"directional": an, "finite_difference": fd, "rel_err": err}
                ok = ok and err < max(1e-6, 10 * case.tol)
        except Exception as e:  # noqa: BLE001
            row["error"] = str(e)[-2000:]
            ok = False
        row["pass"] = ok
        if not ok:
            failed.append(case.name)
        emit(row)
    emit({"smoke": len(selected), "passed": len(selected) - len(failed), "failed": failed})
    return 1 if failed or not selected else 0


# ---------------------------------------------------------------------------------------------
# --layer: a whole layer of gen.py.


def layer_program(args, rest):
    """gen.py's program for --layer: (its options, its text, its arguments' (name, shape, element
    type), its results' (shape, element type)); dropout p = 0 (torch cannot draw fuser's mask)."""
    a = gen.main_args([args.layer] + rest + ["--dtype", args.dtype, "--dropout", "0.0"])
    text, specs = gen.render(a)
    _, results = signature(text, args.layer)
    return a, text, specs, results


def check_layer_smoke(args, rest, fuser, emit):
    """--smoke --layer M: the layer's @M_vjp (inputs drawn with numpy) against a central difference
    of fuser's forward along one random direction of every float argument."""
    model = args.layer
    a, text, specs, results = layer_program(args, rest)
    rng = np.random.default_rng(args.seed)

    def draw(name, shape, elem):
        if elem == "i64":
            if name in ("ids", "labels"):
                return rng.integers(0, a.vocab, shape).astype(np.int64)
            return np.full(shape, 7 if name == "seed" else 0, dtype=np.int64)
        if name == "x":
            return rng.standard_normal(shape)
        if name in ("ln1_w", "ln2_w", "n1_w", "n2_w", "n_w"):
            return 1 + 0.1 * rng.standard_normal(shape)
        return 0.1 * rng.standard_normal(shape)

    inputs = [draw(n, s, e) for n, s, e in specs]
    cots = [rng.uniform(-1, 1, shape) for shape, _ in results]
    module = fuser.autodiff(text, model)
    floats = [i for i, (_, _, e) in enumerate(specs) if e != "i64"]
    out_types = list(results) + [(specs[i][1], specs[i][2]) for i in floats]
    ins = [(x, e) for x, (_, _, e) in zip(inputs, specs)] + [(c, e) for c, (_, e) in zip(cots, results)]
    outs, stdout = fuser.run(module, f"{model}_vjp", ins, out_types, backend=args.backend, timing=(0, 1))
    grads = outs[len(results):]
    dirs = {i: rng.uniform(-1, 1, specs[i][1]) for i in floats}
    # f32 results (lmloss' loss is f32 whatever the dtype) leave the difference quotient to f32's
    # rounding: a larger step, a looser tolerance.
    exact = args.dtype == "f64" and all(e == "f64" for _, e in results)
    h = 1e-6 if exact else 1e-2
    at = []
    for sign in (1, -1):
        xs = [x + sign * h * dirs[i] if i in dirs else x for i, x in enumerate(inputs)]
        fo, _ = fuser.run(module, model, [(x, e) for x, (_, _, e) in zip(xs, specs)], results, backend=args.backend)
        at.append(sum(float(np.sum(o.astype(np.float64) * c)) for o, c in zip(fo, cots)))
    fd = (at[0] - at[1]) / (2 * h)
    an = sum(float(np.sum(g.astype(np.float64) * dirs[i])) for i, g in zip(floats, grads))
    err = abs(fd - an) / max(abs(an), 1e-3)
    # bf16: the inputs' rounding makes the quotient coarse; this checks the plumbing only.
    tol = 1e-6 if exact else 1e-2 if args.dtype != "bf16" else 0.25
    ok = err < tol and all(np.all(np.isfinite(g)) for g in grads)
    emit({"layer": model, "smoke": True, "dtype": args.dtype, "backend": args.backend,
          "reference": "central difference of fuser-run --entry " + model,
          "grads": [specs[i][0] for i in floats], "directional": an, "finite_difference": fd, "rel_err": err,
          "tol": tol, "fuser_vjp_ms": fuser_ms(stdout), "pass": ok})
    return 0 if ok else 1


def check_layer(args, rest, fuser, emit):
    load_torch()
    from torch_layers import draw_all, reference, timed

    model = args.layer
    a, text, specs, results = layer_program(args, rest)
    tdt = {"bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64}
    run_dt = tdt[args.dtype]
    # The reference: f64 for f32/f64 programs, f32 from the same bf16 values for bf16.
    ref_dt = torch.float32 if args.dtype == "bf16" else torch.float64
    dev = torch.device("cuda" if args.backend == "cuda" or torch.cuda.is_available() else "cpu")

    tensors = draw_all(specs, a, run_dt)
    g = torch.Generator().manual_seed(1)
    cots = [torch.randn(shape, generator=g).to(tdt[elem]) for shape, elem in results]
    float_names = [n for n, _, e in specs if e != "i64"]

    def writer(t):
        def w(path):
            raw = t.view(torch.int16) if t.dtype == torch.bfloat16 else t
            raw.contiguous().numpy().tofile(path)
        return w

    module = fuser.autodiff(text, model)
    ins = [(writer(tensors[n]), e) for n, _, e in specs] + [(writer(c), e) for c, (_, e) in zip(cots, results)]
    out_types = list(results) + [(shape, e) for n, shape, e in specs if e != "i64"]
    extra = []
    if args.backend == "cuda" and a.devices > 1:
        # d processes sharing GPU 0, every collective over CUDA IPC (as vs_torch.py).
        extra = ["--launch", "--devices", ",".join(["0"] * a.devices),
                 "--pass-pipeline", "builtin.module(tp-overlap-collective{backend=cuda_ipc})"]
    outs, stdout = fuser.run(module, f"{model}_vjp", ins, out_types, backend=args.backend, extra=extra,
                             timing=(1, args.iters))
    fuser_out, fuser_grads = outs[: len(results)], outs[len(results):]
    del outs

    def forward(t):
        y = reference(model, a, t)
        return [y, y.mean()] if model == "lmloss" else [y]

    def grads_of(dt):
        """Outputs and gradients of torch autograd on the drawn values in `dt`."""
        t = {k: (v.to(dev).to(dt) if v.is_floating_point() else v.to(dev)) for k, v in tensors.items()}
        for n in float_names:
            t[n].requires_grad_(True)
        ys = forward(t)
        cs = [c.to(dev).to(y.dtype) for c, y in zip(cots, ys)]
        gs = torch.autograd.grad(ys, [t[n] for n in float_names], cs)
        return [y.detach() for y in ys], list(gs)

    def rel(x, ref):
        x, ref = x.to(dev).double().flatten(), ref.double().flatten()
        return ((x - ref).norm() / ref.norm().clamp_min(1e-300)).item()

    ref_out, ref_grads = grads_of(ref_dt)
    row = {"layer": model, "seq": a.seq, "hidden": a.hidden, "heads": a.heads, "kv_heads": a.kv_heads,
           "ffn": a.ffn, "vocab": a.vocab, "placement": a.placement, "devices": a.devices,
           "backend": args.backend, "dtype": args.dtype, "reference": str(ref_dt).replace("torch.", ""),
           "outputs": [rel(torch.from_numpy(o), r) for o, r in zip(fuser_out, ref_out)], "grads": {}}
    own = None
    if args.dtype == "bf16":
        own_out, own = grads_of(torch.bfloat16)
        row["torch_bf16_outputs"] = [rel(o, r) for o, r in zip(own_out, ref_out)]
    # f64: 1e-6, not 1e-10: the layers' sdpa saves an f32 log-sum-exp and lmloss' loss is f32 (the
    # programs' definitions), which bounds their gradients near 1e-7.
    tol = {"f64": 1e-6, "f32": 1e-4, "bf16": 5e-2}[args.dtype]
    ok = all(math.isfinite(e) and e < tol for e in row["outputs"])
    for k, name in enumerate(float_names):
        got = torch.from_numpy(fuser_grads[k])
        entry = {"rel_err": rel(got, ref_grads[k]), "finite": bool(torch.isfinite(got).all())}
        if own is not None:
            entry["torch_bf16_rel_err"] = rel(own[k], ref_grads[k])
        row["grads"][name] = entry
        ok = ok and entry["finite"] and entry["rel_err"] < tol
    if own is not None:
        # How fuser's bf16 error compares with the error torch's own bf16 autograd makes.
        row["worst_ratio_to_torch_bf16"] = max(e["rel_err"] / max(e["torch_bf16_rel_err"], 1e-30)
                                               for e in row["grads"].values())
    row["tol"] = tol
    row["pass"] = ok
    del fuser_grads, ref_grads, own

    # Times: fuser's @M_vjp per iteration against torch's forward + backward in the run's dtype.
    row["fuser_vjp_ms"] = fuser_ms(stdout)
    t = {k: (v.to(dev) if not v.is_floating_point() else v.to(dev).requires_grad_(True)) for k, v in tensors.items()}
    wrt = [t[n] for n in float_names]
    cs = [c.to(dev) for c in cots]

    def step(fwd):
        ys = fwd()
        return torch.autograd.grad(ys, wrt, [c.to(y.dtype) for c, y in zip(cs, ys)])

    row["torch_eager_fwd_bwd_ms"] = timed(lambda: step(lambda: forward(t)), args.torch_iters)
    row["torch_compile_fwd_bwd_ms"] = None
    if not args.no_compile:
        try:
            compiled = torch.compile(lambda: forward(t))
            row["torch_compile_fwd_bwd_ms"] = timed(lambda: step(compiled), args.torch_iters)
        except Exception as e:  # noqa: BLE001
            row["torch_compile_fwd_bwd_ms"] = f"torch.compile failed: {type(e).__name__}: {str(e)[:200]}"
    row["fuser_stdout_tail"] = stdout[-600:]
    emit(row)
    return 0 if ok else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--ops", action="store_true", help="every op family's gradient against torch (f64, cpu)")
    mode.add_argument("--layer", choices=["gpt3", "llama", "lmloss"], help="a layer of gen.py against torch")
    p.add_argument("--smoke", action="store_true", help="no torch: --ops' programs (or --layer's, f64 by "
                   "default) against central differences of fuser's own forward")
    p.add_argument("--fuser-run", default="fuser-run")
    p.add_argument("--fuser-opt", default="fuser-opt")
    p.add_argument("--fuser-args", default="", help="more fuser-run arguments, one string split as a shell does "
                   "(with '=' when it starts with '--': --fuser-args='--cuda-graph')")
    p.add_argument("--only", default="", help="--ops/--smoke: comma-separated program names")
    p.add_argument("--seed", type=int, default=0, help="seed of the drawn inputs and cotangents (--ops/--smoke)")
    p.add_argument("--backend", choices=["cpu", "cuda"], default="cpu", help="fuser-run's backend (--ops: the same "
                   "f64 programs on the cuda backend's kernels with --backend cuda)")
    p.add_argument("--dtype", choices=["f32", "f64", "bf16"], default="f32", help="--layer: the program's dtype")
    p.add_argument("--iters", type=int, default=5, help="--layer: fuser-run's timed iterations (after 1 warmup)")
    p.add_argument("--torch-iters", type=int, default=5, help="--layer: torch's timed iterations")
    p.add_argument("--no-compile", action="store_true", help="--layer: skip torch.compile's time")
    p.add_argument("--out", help="also append the JSON lines to this file")
    args, rest = p.parse_known_args(argv)
    if not (args.ops or args.layer or args.smoke):
        p.error("one of --ops, --layer M, --smoke is required")
    if rest and not args.layer:
        p.error(f"unrecognized arguments: {' '.join(rest)} (gen.py's options go with --layer)")
    if args.smoke and args.layer and "--dtype" not in (argv if argv is not None else sys.argv):
        args.dtype = "f64"

    def emit(row):
        line = json.dumps(row)
        print(line, flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(line + "\n")

    with tempfile.TemporaryDirectory() as tmp:
        fuser = Fuser(args, tmp)
        if args.smoke:
            return check_layer_smoke(args, rest, fuser, emit) if args.layer else check_smoke(args, fuser, emit)
        if args.ops:
            return check_ops(args, fuser, emit)
        return check_layer(args, rest, fuser, emit)


if __name__ == "__main__":
    sys.exit(main())
