#!/usr/bin/env python3
"""Differential fuzzing of affine maps and integer sets: fuser-opt vs. mlir-opt-19.

    tools/mlirgen/affine_fuzz.py FUSER_OPT [--seeds N] [--start S] [--per-file K] [--depth D]

Each seed writes one file of K unregistered ops, each carrying a random `affine_map<...>` or
`affine_set<...>` (valid: products have a dimension-free operand, divisors are dimension-free),
or a memref type with an affine layout. Both tools print it with --mlir-print-local-scope (so
every map is printed inline) and the outputs must be identical. A second pass feeds one
random *invalid* expression per file (a product of two dimension-dependent operands, or a
dimension-dependent divisor) and compares the diagnostics.

With --extract-from FILE..., instead checks every `affine_map<...>` / `affine_set<...>` literal
found in the given .mlir files (e.g. tools/mlirgen/gen.py outputs), one literal per run.

Prints the first mismatching expressions and a summary; exits 1 on any mismatch.
"""
import argparse
import os
import re
import random
import subprocess
import sys
import tempfile

CONSTS = [0, 1, -1, 2, -2, 3, 4, -4, 5, 6, 8, 12, 16, -16, 64, 128, 9223372036854775807]


def atom(rng, dims, syms, symbolic):
    """A leaf: constant, symbol or (unless `symbolic`) dimension."""
    choices = ["c"] + (["s"] if syms else []) + ([] if symbolic or not dims else ["d", "d"])
    kind = rng.choice(choices)
    if kind == "c":
        c = rng.choice(CONSTS) if rng.random() < 0.8 else rng.randint(-100, 100)
        return (str(c) if c >= 0 else f"-{-c}"), True
    if kind == "s":
        return rng.choice(syms), True
    return rng.choice(dims), False


def expr(rng, dims, syms, depth, symbolic=False):
    """Returns (text, is_symbolic_or_constant) of a valid affine expression."""
    if depth <= 0 or rng.random() < 0.25:
        return atom(rng, dims, syms, symbolic)
    op = rng.choice(["+", "-", "*", "floordiv", "ceildiv", "mod", "neg", "pattern"])
    if op == "pattern":
        return pattern(rng, dims, syms, depth - 1, symbolic)
    if op == "neg":
        t, s = expr(rng, dims, syms, depth - 1, symbolic)
        return f"-({t})" if rng.random() < 0.7 else f"-{wrap(t)}", s
    if op in ("+", "-"):
        a, sa = expr(rng, dims, syms, depth - 1, symbolic)
        b, sb = expr(rng, dims, syms, depth - 1, symbolic)
        b = f"({b})" if rng.random() < 0.6 or op == "-" else b
        return f"{a} {op} {b}", sa and sb
    if op == "*":
        a, sa = expr(rng, dims, syms, depth - 1, symbolic)
        b, sb = expr(rng, dims, syms, depth - 1, symbolic=not sa or symbolic)
        if rng.random() < 0.5:
            a, b = b, a
        return f"{wrap(a)} * {wrap(b)}", sa and sb
    a, sa = expr(rng, dims, syms, depth - 1, symbolic)
    b, _ = expr(rng, dims, syms, depth - 1, symbolic=True) if rng.random() < 0.4 else atom(rng, [], syms, True)
    return f"{wrap(a)} {op} {wrap(b)}", sa


def pattern(rng, dims, syms, depth, symbolic):
    """Shapes that MLIR's simplifications look for: `e - (e floordiv q) * q`, sums of multiples
    divided or reduced by a constant, nested `mod`s, repeated terms."""
    e, se = expr(rng, dims, syms, depth, symbolic)
    f, sf = expr(rng, dims, syms, depth, symbolic)
    q = rng.choice([str(rng.choice([1, 2, 3, 4, 6, 8, -2])), rng.choice(syms)] if syms else [str(rng.choice([1, 2, 3, 4, 6, 8, -2]))])
    c1, c2 = rng.choice([2, 3, 4, 6, 8, 12]), rng.choice([1, 2, 3, 4, 6, -2, -4])
    forms = [
        (f"({e}) - (({e}) floordiv {q}) * {q}", se),
        (f"({e}) + (({e}) floordiv {q}) * -{q}", se),
        (f"(({e}) floordiv {q}) * {q} - ({e})", se),
        (f"(({e}) * {c1} + ({f}) * {c2}) floordiv {c2}", se and sf),
        (f"(({e}) * {c1} + {f}) mod {c2}", se and sf),
        (f"(({f}) + ({e}) * {c1}) ceildiv {c1}", se and sf),
        (f"(({e}) mod {c1 * 2}) mod {c1}", se),
        (f"({e}) * {c1} - ({e}) * {c2}", se),
        (f"({e}) + {c1} + ({f}) - {c1}", se and sf),
    ]
    return rng.choice(forms)


def wrap(t):
    return t if t.replace("-", "").isalnum() and not t.startswith("-") else f"({t})"


def header(rng):
    dims = [f"d{i}" for i in range(rng.randint(0, 3))]
    syms = [f"s{i}" for i in range(rng.randint(0, 2))]
    h = f"({', '.join(dims)})" + (f"[{', '.join(syms)}]" if syms or rng.random() < 0.1 else "")
    return dims, syms, h


def random_attr(rng, depth):
    dims, syms, h = header(rng)
    if rng.random() < 0.3:
        cons = []
        for _ in range(rng.randint(0, 3)):
            a, _ = expr(rng, dims, syms, depth)
            b, _ = expr(rng, dims, syms, depth) if rng.random() < 0.5 else ("0", True)
            cons.append(f"{a} {rng.choice(['>=', '<=', '=='])} {b}")
        return f"affine_set<{h} : ({', '.join(cons)})>"
    results = [expr(rng, dims, syms, depth)[0] for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.2 and dims:
        shape = "x".join(str(rng.randint(1, 4)) for _ in dims)
        ident = ", ".join(dims) if rng.random() < 0.5 else ", ".join(results)
        return f"memref<{shape}xf32, affine_map<{h} -> ({ident})>>"
    return f"affine_map<{h} -> ({', '.join(results)})>"


def invalid_attr(rng, depth):
    dims, syms, h = header(rng)
    dims = dims or ["d0"]
    h = h if h.startswith("(d") else "(d0)" + h[2:]
    a, _ = expr(rng, dims, syms, depth)
    b = rng.choice(dims)
    op = rng.choice(["*", "floordiv", "ceildiv", "mod"])
    left = rng.choice(dims) if op == "*" else a
    return f"affine_map<{h} -> ({wrap(left)} {op} ({b} + {wrap(a)}))>"


def extract_literals(text):
    """Every `affine_map<...>` / `affine_set<...>` in `text` (`->` and `>=` do not close)."""
    found = []
    for m in re.finditer(r"affine_(?:map|set)<", text):
        i, depth = m.end(), 1
        while i < len(text) and depth:
            pair = text[i:i + 2]
            if pair in ("->", ">="):
                i += 2
                continue
            depth += (text[i] == "<") - (text[i] == ">")
            i += 1
        found.append(text[m.start():i])
    return found


def check_extracted(args, files, path):
    literals = sorted({lit for f in files for lit in extract_literals(open(f, errors="replace").read())})
    bad = 0
    for lit in literals:
        with open(path, "w") as f:
            f.write(op_line(0, lit))
        ref, ours = run(args.ref, path), run(args.fuser_opt, path)
        if ref != ours:
            bad += 1
            if bad <= args.show:
                print(f"{lit}\n  ref:  {ref}\n  ours: {ours}")
    print(f"affine_fuzz: {len(literals)} distinct literals from {len(files)} files, {bad} mismatches")
    sys.exit(1 if bad else 0)


def run(tool, path):
    p = subprocess.run([tool, "--allow-unregistered-dialect", "--mlir-print-local-scope", path],
                       capture_output=True, text=True, cwd=os.path.dirname(path))
    return p.returncode, p.stdout + p.stderr


def op_line(i, attr):
    if attr.startswith("memref"):
        return f'"t.op{i}"() : () -> {attr}\n'
    return f'"t.op{i}"() {{a = {attr}}} : () -> ()\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fuser_opt")
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--per-file", type=int, default=40)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--ref", default="mlir-opt-19")
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--extract-from", nargs="+", metavar="FILE")
    args = ap.parse_args()
    args.fuser_opt = os.path.abspath(args.fuser_opt) if os.sep in args.fuser_opt else args.fuser_opt
    work = tempfile.mkdtemp(prefix="affine-fuzz.")
    path = os.path.join(work, "in.mlir")
    if args.extract_from:
        check_extracted(args, args.extract_from, path)
    bad = shown = ref_failed = 0
    for seed in range(args.start, args.start + args.seeds):
        rng = random.Random(seed)
        attrs = [random_attr(rng, args.depth) for _ in range(args.per_file)]
        with open(path, "w") as f:
            f.writelines(op_line(i, a) for i, a in enumerate(attrs))
        ref, ours = run(args.ref, path), run(args.fuser_opt, path)
        ref_failed += ref[0] != 0
        if ref != ours:
            bad += 1
            rl, ol = ref[1].splitlines(), ours[1].splitlines()
            for k in range(max(len(rl), len(ol))):
                r = rl[k] if k < len(rl) else "<none>"
                o = ol[k] if k < len(ol) else "<none>"
                if r != o and shown < args.show:
                    shown += 1
                    print(f"seed {seed}:\n  ref:  {r.strip()}\n  ours: {o.strip()}")
                    if ref[0] != 0 or ours[0] != 0:
                        break
        with open(path, "w") as f:
            f.write(op_line(0, invalid_attr(rng, args.depth - 1)))
        ref, ours = run(args.ref, path), run(args.fuser_opt, path)
        if ref != ours:
            bad += 1
            if shown < args.show:
                shown += 1
                print(f"seed {seed} (invalid):\n  ref:  {ref}\n  ours: {ours}")
    print(f"affine_fuzz: {args.seeds} seeds, {bad} mismatching files, {ref_failed} valid-input files"
          f" rejected by the reference (work dir {work})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
