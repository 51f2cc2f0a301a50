#!/usr/bin/env python3
"""Differential fuzzing of arith's integer folders and canonicalization patterns:
fuser-opt --canonicalize vs. mlir-opt-19 --canonicalize, byte for byte.

    tools/mlirgen/arith_int_fuzz.py --fuser-opt target/debug/fuser-opt [--count 300] [--seed 0]
        [--mlir-opt mlir-opt-19] [--batch 100] [--ops 14] [--widths 1,8,64,index] [--keep DIR]

Each program is one `func.func` of random integer `arith` ops (the binary ops, shifts,
divisions and rounding divisions, min/max, cmpi with every predicate, select, the extended
ops, extsi/extui/trunci/index_cast/index_castui) on random widths (1 .. 1024 and `index`),
on scalars, vectors and tensors, with constants drawn from edge values (0, 1, -1, INT_MIN,
INT_MAX), random full-width bit patterns (decimal or hex) and small numbers; some operands
are function arguments so that patterns, not only folders, fire.

Programs are checked in batches (one file, `// -----` between programs, both tools run with
--split-input-file). A batch whose stdout or exit status differs is re-run one program at a
time; the first mismatching program is written out (input, both outputs) and the script
exits 1 with a reproduction command. Exit 0 means every program matched. Python 3 stdlib.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

WIDTHS = [1, 7, 8, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 192, 256, 300, 512, 1024, "index"]
BINARY = ["addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui",
          "floordivsi", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "maxui", "minsi", "minui"]
FLAGGED = {"addi", "subi", "muli", "shli"}
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def bits_of(w):
    return 64 if w == "index" else w


def elem_str(w):
    return "index" if w == "index" else f"i{w}"


class Ty:
    """An integer-like type: element width (or "index") and shape kind."""

    def __init__(self, w, shape):
        self.w, self.shape = w, shape  # shape: None, ("vector", n) or ("tensor", n)

    def with_elem(self, w):
        return Ty(w, self.shape)

    def __str__(self):
        e = elem_str(self.w)
        if self.shape is None:
            return e
        kind, n = self.shape
        return f"{kind}<{n}x{e}>"

    def key(self):
        return str(self)


def rand_value(rng, w):
    """A random signed value of width `w` (an int in [-2^(w-1), 2^(w-1)))."""
    n = bits_of(w)
    lo, hi = -(1 << (n - 1)), (1 << (n - 1)) - 1
    k = rng.random()
    if k < 0.35:
        return fit(w, rng.choice([0, 1, -1, lo, hi, lo + 1, hi - 1, 2, -2]))
    if k < 0.65:
        v = rng.getrandbits(n)
        return v - (1 << n) if v > hi else v
    if k < 0.8:
        # A value with few high bits set (a mostly-zero or mostly-one pattern).
        v = rng.getrandbits(rng.randint(1, n))
        return max(lo, min(hi, -v if rng.random() < 0.4 else v))
    return max(lo, min(hi, rng.randint(-300, 300)))


def fit(w, v):
    """`v` wrapped into the signed range of width `w`."""
    n = bits_of(w)
    v %= 1 << n
    return v - (1 << n) if v >> (n - 1) else v


def literal(rng, w, v):
    """`v` spelled as MLIR accepts for width `w`: decimal, or sometimes the unsigned hex form."""
    n = bits_of(w)
    if rng.random() < 0.2 and w not in (1, "index"):
        return hex(v % (1 << n))
    return str(v)


def amount(rng, w):
    """A shift amount: mostly below the width, sometimes at or past it."""
    n = bits_of(w)
    if rng.random() < 0.8:
        return rng.randint(0, n - 1)
    return rng.choice([n, n + 1, 2 * n, -1])


def divisor(rng, w):
    return rng.choice([0, -1, 1, 2, -2, 3, 7]) if rng.random() < 0.4 else rand_value(rng, w)


class Fn:
    def __init__(self, rng, name, nops):
        self.rng, self.name = rng, name
        self.lines, self.args, self.pool, self.n = [], [], {}, 0
        w = rng.choice(WIDTHS)
        r = rng.random()
        shape = None if r < 0.55 else (("vector", rng.choice([2, 3, 4])) if r < 0.8 else ("tensor", rng.choice([2, 3])))
        self.main = Ty(w, shape)
        for _ in range(rng.randint(0, 3)):
            self.arg(self.main)
        for _ in range(rng.randint(2, 4)):
            self.const(self.main)
        for _ in range(nops):
            self.step()

    def fresh(self):
        self.n += 1
        return f"%v{self.n}"

    def add(self, ty, v):
        self.pool.setdefault(ty.key(), (ty, []))[1].append(v)
        return v

    def arg(self, ty):
        v = f"%a{len(self.args)}"
        self.args.append((v, ty))
        return self.add(ty, v)

    def const(self, ty, values=None):
        rng, w = self.rng, ty.w
        values = [fit(w, x) for x in values] if values is not None else [rand_value(rng, w)]
        v = self.fresh()
        if ty.shape is None:
            text = literal(rng, w, values[0]) + f" : {ty}"
            if w == 1 and rng.random() < 0.5:
                text = "true" if values[0] else "false"
            self.lines.append(f"{v} = arith.constant {text}")
        else:
            n = ty.shape[1]
            # i1 elements are spelled 0/1 (dense literals take no -1 for i1).
            spell = (lambda x: str(x & 1)) if w == 1 else str
            if len(values) == 1 and rng.random() < 0.5:
                body = spell(values[0])
            else:
                vals = [values[0] if rng.random() < 0.3 else rand_value(rng, w) for _ in range(n)]
                body = "[" + ", ".join(spell(x) for x in vals) + "]"
            self.lines.append(f"{v} = arith.constant dense<{body}> : {ty}")
        return self.add(ty, v)

    def operand(self, ty):
        _, vals = self.pool.get(ty.key(), (ty, []))
        if not vals or self.rng.random() < 0.15:
            return self.const(ty)
        return self.rng.choice(vals)

    def pick_type(self):
        rng = self.rng
        if rng.random() < 0.6:
            return self.main
        return rng.choice([t for t, _ in self.pool.values()])

    def step(self):
        rng = self.rng
        ty = self.pick_type()
        k = rng.random()
        if k < 0.5:
            op = rng.choice(BINARY)
            a = self.operand(ty)
            if op.startswith("sh") and rng.random() < 0.7:
                b = self.const(ty, [amount(rng, ty.w)] if rng.random() < 0.6 else None)
            elif "div" in op or "rem" in op:
                b = self.const(ty, [divisor(rng, ty.w)]) if rng.random() < 0.6 else self.operand(ty)
            else:
                b = self.operand(ty)
            flags = ""
            if op in FLAGGED and rng.random() < 0.25:
                flags = " overflow<" + rng.choice(["nsw", "nuw", "nsw, nuw"]) + ">"
            v = self.fresh()
            self.lines.append(f"{v} = arith.{op} {a}, {b}{flags} : {ty}")
            self.add(ty, v)
        elif k < 0.62:
            a, b = self.operand(ty), self.operand(ty)
            v = self.fresh()
            self.lines.append(f"{v} = arith.cmpi {rng.choice(PREDICATES)}, {a}, {b} : {ty}")
            self.add(ty.with_elem(1), v)
        elif k < 0.7:
            cty = ty.with_elem(1) if (ty.shape is not None and rng.random() < 0.6) else Ty(1, None)
            c, a, b = self.operand(cty), self.operand(ty), self.operand(ty)
            v = self.fresh()
            if cty.shape is None:
                self.lines.append(f"{v} = arith.select {c}, {a}, {b} : {ty}")
            else:
                self.lines.append(f"{v} = arith.select {c}, {a}, {b} : {cty}, {ty}")
            self.add(ty, v)
        elif k < 0.8:
            op = rng.choice(["addui_extended", "mulsi_extended", "mului_extended"])
            a, b = self.operand(ty), self.operand(ty)
            v1, v2 = self.fresh(), self.fresh()
            if op == "addui_extended":
                self.lines.append(f"{v1}, {v2} = arith.{op} {a}, {b} : {ty}, {ty.with_elem(1)}")
                self.add(ty, v1)
                self.add(ty.with_elem(1), v2)
            else:
                self.lines.append(f"{v1}, {v2} = arith.{op} {a}, {b} : {ty}")
                self.add(ty, v1)
                self.add(ty, v2)
        elif k < 0.9:
            self.cast(ty)
        else:
            self.skeleton(ty)

    def emit(self, ty, text):
        v = self.fresh()
        self.lines.append(f"{v} = {text}")
        return self.add(ty, v)

    def skeleton(self, ty):
        """A shape one of MLIR's integer canonicalization patterns matches, on random values."""
        rng = self.rng
        x, y = self.operand(ty), self.operand(ty)
        c0, c1 = self.const(ty), self.const(ty)
        kind = rng.randrange(9)
        flags = (" overflow<" + rng.choice(["nsw", "nuw", "nsw, nuw"]) + ">") if rng.random() < 0.3 else ""
        if kind == 0:
            inner = rng.choice(["addi", "subi"])
            a, b = (x, c0) if rng.random() < 0.5 else (c0, x)
            t = self.emit(ty, f"arith.{inner} {a}, {b}{flags} : {ty}")
            outer = rng.choice(["addi", "subi"])
            a, b = (t, c1) if rng.random() < 0.5 else (c1, t)
            self.emit(ty, f"arith.{outer} {a}, {b}{flags} : {ty}")
        elif kind == 1:
            t = self.emit(ty, f"arith.muli {x}, {c0}{flags} : {ty}")
            self.emit(ty, f"arith.muli {t}, {c1}{flags} : {ty}")
        elif kind == 2:
            m1 = self.const(ty, [-1])
            t = self.emit(ty, f"arith.muli {y}, {m1} : {ty}")
            a, b = (x, t) if rng.random() < 0.5 else (t, x)
            self.emit(ty, f"arith.addi {a}, {b} : {ty}")
        elif kind == 3:
            c = self.emit(ty.with_elem(1), f"arith.cmpi {rng.choice(PREDICATES)}, {x}, {y} : {ty}")
            ones = self.const(ty.with_elem(1), [1])
            self.emit(ty.with_elem(1), f"arith.xori {c}, {ones} : {ty.with_elem(1)}")
        elif kind == 4 and ty.w != "index":
            wider = [w for w in WIDTHS if w != "index" and w > ty.w]
            if not wider:
                return
            to = ty.with_elem(rng.choice(wider))
            e1, e2 = rng.choice(["extsi", "extui"]), rng.choice(["extsi", "extui"])
            a = self.emit(to, f"arith.{e1} {x} : {ty} to {to}")
            b = self.emit(to, f"arith.{e2} {y} : {ty} to {to}")
            op = rng.choice(["andi", "ori", "xori", "cmpi"])
            if op == "cmpi":
                self.emit(to.with_elem(1), f"arith.cmpi {rng.choice(PREDICATES)}, {a}, {b} : {to}")
            else:
                self.emit(to, f"arith.{op} {a}, {b} : {to}")
        elif kind == 5 and ty.w not in ("index", 1):
            narrower = [w for w in WIDTHS if w != "index" and w < ty.w]
            if not narrower:
                return
            to = ty.with_elem(rng.choice(narrower))
            n = bits_of(ty.w) - bits_of(to.w)
            amt = self.const(ty, [n if rng.random() < 0.7 else rng.randint(0, bits_of(ty.w) - 1)])
            t = self.emit(ty, f"arith.{rng.choice(['shrsi', 'shrui'])} {x}, {amt} : {ty}")
            self.emit(to, f"arith.trunci {t} : {ty} to {to}")
        elif kind == 6 and ty.w not in ("index",):
            wide = ty.with_elem(2 * bits_of(ty.w))
            e = rng.choice(["extsi", "extui"])
            a = self.emit(wide, f"arith.{e} {x} : {ty} to {wide}")
            b = self.emit(wide, f"arith.{e} {y} : {ty} to {wide}")
            m = self.emit(wide, f"arith.muli {a}, {b} : {wide}")
            amt = self.const(wide, [bits_of(ty.w)])
            t = self.emit(wide, f"arith.shrui {m}, {amt} : {wide}")
            self.emit(ty, f"arith.trunci {t} : {wide} to {ty}")
        elif kind == 7:
            cty = Ty(1, None)
            c = self.operand(cty)
            z, o = self.const(ty, [0]), self.const(ty, [1])
            a, b = (o, z) if rng.random() < 0.5 else (z, o)
            self.emit(ty, f"arith.select {c}, {a}, {b} : {ty}")
        elif kind == 8:
            op = rng.choice(["addui_extended", "mulsi_extended", "mului_extended"])
            one = self.const(ty, [rng.choice([0, 1])])
            v1, v2 = self.fresh(), self.fresh()
            if op == "addui_extended":
                self.lines.append(f"{v1}, {v2} = arith.{op} {x}, {one} : {ty}, {ty.with_elem(1)}")
                self.add(ty, v1)
                if rng.random() < 0.5:
                    self.add(ty.with_elem(1), v2)
            else:
                self.lines.append(f"{v1}, {v2} = arith.{op} {x}, {one} : {ty}")
                self.add(ty, v1)
                if rng.random() < 0.5:
                    self.add(ty, v2)

    def cast(self, ty):
        rng = self.rng
        a = self.operand(ty)
        v = self.fresh()
        if ty.w == "index":
            to = ty.with_elem(rng.choice([w for w in WIDTHS if w != "index"]))
            op = rng.choice(["index_cast", "index_castui"])
        elif rng.random() < 0.3:
            to = ty.with_elem("index")
            op = rng.choice(["index_cast", "index_castui"])
        else:
            wider = [w for w in WIDTHS if w != "index" and w > ty.w]
            narrower = [w for w in WIDTHS if w != "index" and w < ty.w]
            if wider and (not narrower or rng.random() < 0.5):
                to, op = ty.with_elem(rng.choice(wider)), rng.choice(["extsi", "extui"])
            elif narrower:
                to, op = ty.with_elem(rng.choice(narrower)), "trunci"
            else:
                return
        self.lines.append(f"{v} = arith.{op} {a} : {ty} to {to}")
        self.add(to, v)

    def text(self):
        produced = [(v, t) for t, vs in self.pool.values() for v in vs if v.startswith("%v")]
        rng = self.rng
        rets = [x for x in produced if rng.random() < 0.6] or produced[-1:]
        args = ", ".join(f"{v}: {t}" for v, t in self.args)
        rtys = ", ".join(str(t) for _, t in rets)
        out = [f"func.func @{self.name}({args}) -> ({rtys}) {{"]
        out += ["  " + line for line in self.lines]
        out.append("  return " + ", ".join(v for v, _ in rets) + " : " + rtys)
        out.append("}")
        return "\n".join(out) + "\n"


def program(seed, nops):
    rng = random.Random(seed)
    return Fn(rng, f"f{seed}", rng.randint(3, nops)).text()


def run(tool, path, split, timeout):
    cmd = [tool, "--canonicalize", path] + (["--split-input-file"] if split else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fuser-opt", required=True)
    ap.add_argument("--mlir-opt", default="mlir-opt-19")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0, help="first seed; program i uses seed+i")
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--ops", type=int, default=14, help="at most this many ops per program")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--keep", help="directory for the reproducer (default: a temporary one)")
    ap.add_argument("--print", action="store_true", help="print the programs and exit")
    ap.add_argument("--widths", help="comma-separated element widths to draw from (e.g. 1,8,64,index)")
    a = ap.parse_args()
    if a.widths:
        WIDTHS[:] = [w if w == "index" else int(w) for w in a.widths.split(",")]
    seeds = list(range(a.seed, a.seed + a.count))
    if a.print:
        sys.stdout.write("// -----\n".join(program(s, a.ops) for s in seeds))
        return 0
    work = tempfile.mkdtemp(prefix="arith-int-fuzz.")
    checked = 0
    for i in range(0, len(seeds), a.batch):
        batch = seeds[i:i + a.batch]
        path = os.path.join(work, "batch.mlir")
        with open(path, "w") as f:
            f.write("// -----\n".join(program(s, a.ops) for s in batch))
        if run(a.fuser_opt, path, True, a.timeout) == run(a.mlir_opt, path, True, a.timeout):
            checked += len(batch)
            continue
        for s in batch:
            one = os.path.join(work, f"seed-{s}.mlir")
            with open(one, "w") as f:
                f.write(program(s, a.ops))
            ours, theirs = run(a.fuser_opt, one, False, a.timeout), run(a.mlir_opt, one, False, a.timeout)
            if ours[:2] == theirs[:2]:
                checked += 1
                continue
            out = a.keep or work
            os.makedirs(out, exist_ok=True)
            for name, r in (("fuser", ours), ("mlir", theirs)):
                with open(os.path.join(out, f"seed-{s}.{name}.out"), "w") as f:
                    f.write(f"// exit {r[0]}\n{r[1]}{r[2]}")
            if out != work:
                with open(os.path.join(out, f"seed-{s}.mlir"), "w") as f:
                    f.write(program(s, a.ops))
            print(f"arith_int_fuzz: MISMATCH at seed {s} (after {checked} matching programs)")
            print(f"  input: {os.path.join(out, f'seed-{s}.mlir')}")
            print(f"  exit status: fuser-opt {ours[0]}, mlir-opt {theirs[0]}")
            import difflib
            diff = difflib.unified_diff(theirs[1].splitlines(), ours[1].splitlines(), "mlir-opt", "fuser-opt", lineterm="")
            print("\n".join(list(diff)[:40]))
            if ours[2] or theirs[2]:
                print("  fuser-opt stderr: " + ours[2][:500])
                print("  mlir-opt stderr: " + theirs[2][:500])
            widths = f" --widths {a.widths}" if a.widths else ""
            print(f"  reproduce: python3 {sys.argv[0]} --fuser-opt {a.fuser_opt} --seed {s} --count 1 --ops {a.ops}{widths}")
            return 1
        # The batch differed, but no single program did (e.g. a separator difference).
        print(f"arith_int_fuzz: batch at seed {batch[0]} differs, but no single program does")
        return 1
    print(f"arith_int_fuzz: {checked} programs, all identical (seeds {a.seed}..{a.seed + a.count - 1})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
