#!/usr/bin/env python3
"""Random control-flow programs, fuser-opt vs mlir-opt-19 under the region simplifications.

Each program is one function with many blocks: `cf.br`, `cf.cond_br` and `cf.switch`
terminators (forward and backward edges, constant and variable conditions and flags), block
arguments, one value passed for several successors, near-identical blocks (same ops, different
constants or arguments, so identical-block merging and redundant-argument dropping fire) and
arith ops that fold. Every program is run through both tools with each pipeline in PIPELINES
(one `--split-input-file` run per tool and pipeline for a whole batch), and the outputs are
compared chunk by chunk: stdout byte for byte, and whether the chunk failed.

    python3 tools/mlirgen/cfg_fuzz.py --fuser-opt target/debug/fuser-opt --count 300 --seed 0

Exit status: 0 when every chunk matches, 1 on a mismatch (the first few are shown, with the
program saved under --keep-dir), 2 on usage errors. Python 3 standard library only.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

PIPELINES = [
    ["--canonicalize"],
    ["--canonicalize=region-simplify=aggressive"],
    ["--cse"],
    ["--canonicalize", "--cse"],
]
SEP = "// -----"
BATCH_TIMEOUT = 60
PROGRAM_TIMEOUT = 10


class Gen:
    """One random function; `text()` is its MLIR."""

    def __init__(self, rng, size):
        self.rng = rng
        self.n = max(2, size)
        self.lines = []
        self.counter = 0
        self.current, self.back_edge = 0, False

    def fresh(self, prefix="v"):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def pick(self, seq):
        return self.rng.choice(seq)

    def const(self, pool, ty, value=None):
        name = self.fresh("c")
        v = self.pick([0, 1, 2, 3, -1, 7]) if value is None else value
        if ty == "i1":
            self.lines.append(f"  {name} = arith.constant {'true' if v % 2 else 'false'}")
        else:
            self.lines.append(f"  {name} = arith.constant {v} : {ty}")
        pool.setdefault(ty, []).append(name)
        return name

    def body(self, pool, template):
        """Arith ops over `pool`; `template` (ops, constants) makes near-identical blocks."""
        ops, consts = template
        for op, k in zip(ops, consts):
            a = self.pick(pool["i32"])
            if k is not None:
                b = self.const(pool, "i32", k)
            else:
                b = self.pick(pool["i32"])
            name = self.fresh()
            if op == "cmpi":
                pred = self.pick(["eq", "ne", "slt", "ult", "sge"])
                self.lines.append(f"  {name} = arith.cmpi {pred}, {a}, {b} : i32")
                pool["i1"].append(name)
            elif op == "select":
                c = self.pick(pool["i1"])
                self.lines.append(f"  {name} = arith.select {c}, {a}, {b} : i32")
                pool["i32"].append(name)
            else:
                self.lines.append(f"  {name} = arith.{op} {a}, {b} : i32")
                pool["i32"].append(name)

    def template(self):
        ops = [self.pick(["addi", "muli", "subi", "andi", "xori", "cmpi", "select"])
               for _ in range(self.rng.randint(0, 3))]
        consts = [self.pick([None, 0, 1, 2, 5]) for _ in ops]
        return ops, consts

    def vary(self, template):
        ops, consts = template
        consts = [c if c is None or self.rng.random() < 0.5 else self.pick([0, 1, 2, 5]) for c in consts]
        return ops, consts

    def operands_for(self, pool, types):
        return [self.pick(pool[t]) for t in types]

    def target(self, pool, blocks, shared):
        """`^bbK(args : types)` for a random block; `shared` reuses one value for all args."""
        k = self.rng.randrange(1, len(blocks))
        self.back_edge |= k <= self.current
        types = blocks[k]
        if not types:
            return f"^bb{k}"
        if shared is not None and all(t == "i32" for t in types):
            vals = [shared] * len(types)
        else:
            vals = self.operands_for(pool, types)
        return f"^bb{k}({', '.join(vals)} : {', '.join(types)})"

    def terminator(self, pool, blocks, i):
        """The block's terminator. A block with a back edge also calls `@side` (not pure, so
        never erased): a cycle of blocks left empty makes mlir-opt-19's branch forwarding loop
        forever (fuser stops, see canonicalize's docs), and there is nothing to compare with."""
        self.current, self.back_edge = i, False
        start = len(self.lines)
        self.branch(pool, blocks, i)
        if self.back_edge:
            self.lines.insert(start, f"  func.call @side({self.pick(pool['i32'])}) : (i32) -> ()")

    def branch(self, pool, blocks, i):
        r = self.rng.random()
        if i > 0 and r < 0.12:
            self.lines.append(f"  return {self.pick(pool['i32'])} : i32")
            return
        shared = self.pick(pool["i32"]) if self.rng.random() < 0.4 else None
        if r < 0.45:
            self.lines.append(f"  cf.br {self.target(pool, blocks, shared)}")
        elif r < 0.7:
            c = self.pick(pool["i1"])
            t = self.target(pool, blocks, shared)
            f = self.target(pool, blocks, shared) if self.rng.random() < 0.8 else t
            self.lines.append(f"  cf.cond_br {c}, {t}, {f}")
        else:
            flag = self.pick(pool["i32"])
            cases = sorted(self.rng.sample(range(-2, 9), self.rng.randint(0, 6)))
            default = self.target(pool, blocks, shared)
            dests = []
            for v in cases:
                d = default if self.rng.random() < 0.2 else self.target(pool, blocks, shared)
                dests.append(f"{v}: {d}")
            body = ",\n    ".join([f"default: {default}"] + dests)
            self.lines.append(f"  cf.switch {flag} : i32, [\n    {body}\n  ]")

    def text(self):
        rng = self.rng
        blocks = [[]] + [["i32"] * rng.choice([0, 0, 1, 1, 2]) for _ in range(self.n - 1)]
        entry_pool = {"i32": ["%x", "%y"], "i1": ["%p"]}
        self.lines.append("func.func private @side(i32)")
        self.lines.append("func.func @f(%x: i32, %y: i32, %p: i1) -> i32 {")
        for _ in range(rng.randint(1, 3)):
            self.const(entry_pool, "i32")
        self.const(entry_pool, "i1")
        templates = [self.template() for _ in range(max(1, self.n // 3))]
        for i, types in enumerate(blocks):
            pool = {t: list(v) for t, v in entry_pool.items()}
            if i > 0:
                names = [self.fresh("a") for _ in types]
                header = f"^bb{i}" + (f"({', '.join(f'{n}: {t}' for n, t in zip(names, types))})" if types else "")
                self.lines.append(f"{header}:")
                for n, t in zip(names, types):
                    pool[t].append(n)
            self.body(pool, self.vary(self.pick(templates)))
            self.terminator(pool, blocks, i)
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def run_one(tool, flags, path, timeout):
    """stdout of one run, or None when it ran past `timeout` seconds or crashed (killed by a
    signal: exit status 128 and above, or negative)."""
    try:
        p = subprocess.run([tool, *flags, path], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode < 0 or p.returncode >= 128:
        return None
    return p.stdout


def run_batch(tool, flags, path, programs, keep):
    """Per-chunk stdout of `tool` on the batch file; when the batch runs too long or crashes,
    each program is run alone, and one that runs past the limit or crashes gives None."""
    out = run_one(tool, ["--split-input-file", *flags], path, BATCH_TIMEOUT)
    if out is not None:
        return out.split(SEP + "\n")
    chunks = []
    for i, prog in enumerate(programs):
        one = os.path.join(keep, f"one-{i}.mlir")
        with open(one, "w") as f:
            f.write(prog)
        chunks.append(run_one(tool, flags, one, PROGRAM_TIMEOUT))
    return chunks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuser-opt", required=True)
    ap.add_argument("--mlir-opt", default="mlir-opt-19")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=8, help="blocks per function (varied up to 2x)")
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--show", type=int, default=3)
    ap.add_argument("--keep-dir", default=None)
    args = ap.parse_args()
    keep = args.keep_dir or tempfile.mkdtemp(prefix="fuser-cfg-fuzz.")
    os.makedirs(keep, exist_ok=True)
    mismatches = []
    reference_hangs = []
    for start in range(args.seed, args.seed + args.count, args.batch):
        seeds = list(range(start, min(start + args.batch, args.seed + args.count)))
        programs = []
        for s in seeds:
            rng = random.Random(s)
            programs.append(Gen(rng, rng.randint(args.size // 2, args.size * 2)).text())
        path = os.path.join(keep, f"batch-{start}.mlir")
        with open(path, "w") as f:
            f.write(f"\n{SEP}\n".join(programs))
        for flags in PIPELINES:
            want = run_batch(args.mlir_opt, flags, path, programs, keep)
            got = run_batch(args.fuser_opt, flags, path, programs, keep)
            if len(want) != len(got):
                mismatches.append((seeds[0], flags, "chunk count differs", path))
                continue
            for s, w, g, prog in zip(seeds, want, got, programs):
                if w is None:
                    # mlir-opt-19 itself does not finish or crashes: nothing to compare with.
                    reference_hangs.append((s, flags))
                elif w != g:
                    g = "<ran past the time limit or crashed>" if g is None else g
                    p = os.path.join(keep, f"seed-{s}.mlir")
                    with open(p, "w") as f:
                        f.write(prog)
                    mismatches.append((s, flags, (w, g), p))
    for s, flags, detail, p in mismatches[: args.show]:
        print(f"MISMATCH seed {s} {' '.join(flags)}: {p}")
        if isinstance(detail, tuple):
            import difflib
            diff = difflib.unified_diff(detail[0].splitlines(), detail[1].splitlines(), "mlir-opt-19", "fuser-opt", lineterm="")
            print("\n".join(list(diff)[:30]))
        else:
            print(detail)
        print(f"  reproduce: {args.fuser_opt} {' '.join(flags)} {p}")
    total = args.count * len(PIPELINES)
    if reference_hangs:
        listed = ", ".join(f"seed {s} {' '.join(f)}" for s, f in reference_hangs[:10])
        print(f"cfg-fuzz: mlir-opt-19 crashed or ran past {PROGRAM_TIMEOUT} s on {len(reference_hangs)} (skipped): {listed}")
    print(f"cfg-fuzz: {args.count} programs x {len(PIPELINES)} pipelines, {len(mismatches)} mismatches (of {total})")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
