#!/usr/bin/env python3
"""Differential fuzzer for the float folders of `arith`: random functions of float arith ops
over random float types (f16, bf16, f32, f64, f80, f128, tf32 and the 8-bit formats mlir-opt-19
parses), random constants (special values, random bit patterns as hex literals, decimal
literals), scalars and vectors/tensors (splat and not), some operands function arguments.
Each program is run through `fuser-opt --canonicalize` and `mlir-opt-19 --canonicalize`
(batched with --split-input-file) and the outputs are compared byte for byte, per program
(stdout chunk) and as a whole (exit status). Python 3 standard library only.

Usage: python3 tools/mlirgen/arith_float_fuzz.py --fuser-opt target/debug/fuser-opt \
           --count 300 --seed 0
Exit status 1 and a reproducer file on the first mismatch."""

import argparse
import os
import random
import subprocess
import sys
import tempfile

# (keyword, width, exponent bits, fraction bits, special encoding)
FLOATS = {
    "f16": (16, 5, 10, "ieee"),
    "bf16": (16, 8, 7, "ieee"),
    "f32": (32, 8, 23, "ieee"),
    "f64": (64, 11, 52, "ieee"),
    "f80": (80, 15, 64, "x87"),
    "f128": (128, 15, 112, "ieee"),
    "tf32": (19, 8, 10, "ieee"),
    "f8E5M2": (8, 5, 2, "ieee"),
    "f8E4M3": (8, 4, 3, "ieee"),
    "f8E4M3FN": (8, 4, 3, "fn"),
    "f8E5M2FNUZ": (8, 5, 2, "fnuz"),
    "f8E4M3FNUZ": (8, 4, 3, "fnuz"),
    "f8E4M3B11FNUZ": (8, 4, 3, "fnuz"),
}
INTS = [1, 8, 16, 32, 64, 128, 256, 1000]
BINARY = ["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf"]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]
DECIMALS = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "2.0", "3.0", "-3.0", "0.1", "-0.25", "1.5", "7.0", "10.0",
            "100.0", "448.0", "57344.0", "65504.0", "1.0e10", "-1.0e-10", "3.0e38", "1.0e-40", "1.0e300",
            "-2.5", "0.3333333", "240.0", "0.0078125", "6.0e-8", "1.0e-5"]
ROUNDING = ["", "to_nearest_even ", "downward ", "upward ", "toward_zero ", "to_nearest_away "]


def hex_literal(rng, ty):
    width, ebits, fbits, enc = FLOATS[ty]
    sign = rng.getrandbits(1) << (width - 1)
    emax = (1 << ebits) - 1
    fshift = fbits
    choice = rng.randrange(8)
    if rng.random() < 0.08:
        v = rng.getrandbits(width)  # any pattern (f80: unnormals and pseudo-denormals too)
    elif enc == "x87":
        int_bit = 1 << 63
        if choice == 0:
            v = sign | (emax << 64) | int_bit  # inf
        elif choice == 1:
            v = sign | (emax << 64) | int_bit | (1 << 62) | rng.getrandbits(20)  # quiet NaN
        elif choice == 2:
            v = sign | rng.getrandbits(63)  # denormal
        else:
            e = rng.choice([1, emax - 1, 16383, 16383 + rng.randrange(-70, 70), rng.randrange(1, emax)])
            v = sign | (e << 64) | int_bit | rng.getrandbits(63)
    else:
        if choice == 0:
            v = sign | (emax << fshift)  # inf (NaN or normal in FN/FNUZ)
        elif choice == 1:
            v = sign | (emax << fshift) | (1 << (fshift - 1)) | rng.getrandbits(max(fshift - 1, 0))  # qNaN
        elif choice == 2:
            v = sign | (emax << fshift) | max(1, rng.getrandbits(max(fshift - 1, 0)))  # sNaN
        elif choice == 3:
            v = sign | rng.getrandbits(fshift)  # subnormal
        elif choice == 4:
            v = sign if enc != "fnuz" else 0x80 * rng.getrandbits(1)  # zero / FNUZ NaN
        else:
            mid = (1 << (ebits - 1)) - 1
            e = rng.choice([1, emax - 1, mid, max(1, min(emax - 1, mid + rng.randrange(-4, 5))), rng.randrange(1, emax)])
            v = sign | (e << fshift) | rng.getrandbits(fshift)
    digits = (width + 3) // 4
    return "0x%0*X" % (digits, v)


def random_decimal(rng, ty):
    width, ebits = FLOATS[ty][0], FLOATS[ty][1]
    emax = min((1 << (ebits - 1)), 1000)
    v = rng.uniform(1, 2) * 2.0 ** rng.randrange(-emax - 3, emax + 1)
    digits = rng.choice([1, 3, 6, 9, 17])
    return "%s%.*e" % ("-" if rng.random() < 0.5 else "", digits, v)


def scalar_literal(rng, ty):
    r = rng.random()
    if r < 0.45:
        return hex_literal(rng, ty)
    if r < 0.6:
        return random_decimal(rng, ty)
    return rng.choice(DECIMALS)


TYPES = list(FLOATS)


def float_type(rng):
    return rng.choice(TYPES)


def shape_of(rng):
    r = rng.random()
    if r < 0.6:
        return None
    if r < 0.8:
        return ("vector", 3)
    return ("tensor", 2)


def wrap(ty, shape):
    if shape is None:
        return ty
    kind, n = shape
    return "%s<%dx%s>" % (kind, n, ty)


def const_value(rng, ty, shape, literal):
    if shape is None:
        return literal(rng, ty)
    n = shape[1]
    if rng.random() < 0.5:
        return "dense<%s>" % literal(rng, ty)
    return "dense<[%s]>" % ", ".join(literal(rng, ty) for _ in range(n))


def int_literal(rng, width):
    if width == 1:
        return rng.choice(["true", "false"])
    r = rng.random()
    if r < 0.3:
        return str(rng.randrange(-300, 300))
    if r < 0.6:
        return str(rng.choice([1, -1]) * rng.getrandbits(rng.randrange(1, width)))
    if r < 0.8:
        return str(-(1 << (width - 1)) if rng.random() < 0.5 else (1 << (width - 1)) - 1)
    return str(rng.choice([1, -1]) * (1 << rng.randrange(0, width - 1)))


class Func:
    def __init__(self, rng, idx):
        self.rng = rng
        self.idx = idx
        self.args = []
        self.body = []
        self.results = []
        self.counter = 0
        self.values = {}  # type string -> [value names]

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def arg(self, tstr):
        name = "%%a%d" % len(self.args)
        self.args.append((name, tstr))
        return name

    def constant(self, tstr, text):
        name = self.fresh()
        suffix = "" if text in ("true", "false") else " : %s" % tstr
        self.body.append("  %s = arith.constant %s%s" % (name, text, suffix))
        return name

    def operand(self, ty, shape):
        tstr = wrap(ty, shape)
        r = self.rng.random()
        pool = self.values.get(tstr, [])
        if pool and r < 0.3:
            return self.rng.choice(pool)
        if r < 0.42:
            return self.arg(tstr)
        return self.constant(tstr, const_value(self.rng, ty, shape, scalar_literal))

    def int_operand(self, width, shape):
        tstr = wrap("i%d" % width, shape)
        if self.rng.random() < 0.15:
            return self.arg(tstr)
        if shape is None:
            return self.constant(tstr, int_literal(self.rng, width))
        return self.constant(tstr, const_value(self.rng, width, shape, lambda r, w: int_literal(r, w)))

    def emit(self, text, tstr):
        name = self.fresh()
        self.body.append("  %s = %s" % (name, text))
        self.results.append((name, tstr))
        self.values.setdefault(tstr, []).append(name)
        return name

    def one_op(self):
        rng = self.rng
        ty, shape = float_type(rng), shape_of(rng)
        tstr = wrap(ty, shape)
        kind = rng.random()
        if rng.random() < 0.1:
            # cmpf(sitofp/uitofp %int_arg, constant): the integer comparison rewrite.
            width = rng.choice(INTS)
            x = self.arg("i%d" % width)
            conv = self.fresh()
            self.body.append("  %s = arith.%s %s : i%d to %s" % (conv, rng.choice(["sitofp", "uitofp"]), x, width, ty))
            c = self.constant(ty, scalar_literal(rng, ty))
            # `true`/`false` here crash mlir-opt-19 (llvm_unreachable in CmpFIntToFPConst).
            self.emit("arith.cmpf %s, %s, %s : %s" % (rng.choice(CMPF[1:-1]), conv, c, ty), "i1")
            return
        if kind < 0.45:
            op = rng.choice(BINARY)
            a, b = self.operand(ty, shape), self.operand(ty, shape)
            self.emit("arith.%s %s, %s : %s" % (op, a, b, tstr), tstr)
        elif kind < 0.52:
            self.emit("arith.negf %s : %s" % (self.operand(ty, shape), tstr), tstr)
        elif kind < 0.64:
            if shape is not None and rng.random() < 0.7:
                shape = None
                tstr = ty
            pred = rng.choice(CMPF)
            a, b = self.operand(ty, shape), self.operand(ty, shape)
            self.emit("arith.cmpf %s, %s, %s : %s" % (pred, a, b, tstr), wrap("i1", shape))
        elif kind < 0.76:
            other = float_type(rng)
            wa, wb = FLOATS[ty][0], FLOATS[other][0]
            if wa == wb:
                return
            src, dst = (ty, other) if wa < wb else (other, ty)
            op = "extf"
            mode = ""
            if rng.random() < 0.5:
                src, dst, op = dst, src, "truncf"
                mode = rng.choice(ROUNDING)
            s = self.operand(src, shape)
            self.emit("arith.%s %s %s: %s to %s" % (op, s, mode, wrap(src, shape), wrap(dst, shape)), wrap(dst, shape))
        elif kind < 0.88:
            width = rng.choice(INTS)
            op = rng.choice(["sitofp", "uitofp"])
            s = self.int_operand(width, shape)
            self.emit("arith.%s %s : %s to %s" % (op, s, wrap("i%d" % width, shape), tstr), tstr)
        else:
            width = rng.choice(INTS)
            op = rng.choice(["fptosi", "fptoui"])
            s = self.operand(ty, shape)
            dst = wrap("i%d" % width, shape)
            self.emit("arith.%s %s : %s to %s" % (op, s, tstr, dst), dst)

    def text(self):
        args = ", ".join("%s: %s" % a for a in self.args)
        rets = ", ".join(t for _, t in self.results)
        lines = ["func.func @f%d(%s) -> (%s) {" % (self.idx, args, rets)]
        lines += self.body
        lines.append("  return %s : %s" % (", ".join(n for n, _ in self.results), rets) if self.results else "  return")
        lines.append("}")
        return "\n".join(lines) + "\n"


def program(seed):
    rng = random.Random(seed)
    f = Func(rng, seed)
    for _ in range(rng.randrange(1, 7)):
        f.one_op()
    if not f.results:
        f.one_op()
        if not f.results:
            ty = float_type(rng)
            f.emit("arith.negf %s : %s" % (f.operand(ty, None), ty), ty)
    return f.text()


def run(tool, path):
    p = subprocess.run([tool, "--canonicalize", "--split-input-file", path], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def chunks(out):
    return out.split("// -----\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fuser-opt", required=True)
    ap.add_argument("--mlir-opt", default="mlir-opt-19")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=100, help="programs per tool invocation")
    ap.add_argument("--keep", default=None, help="directory for the reproducer (default: a temp dir)")
    ap.add_argument("--types", default=None, help="comma-separated float types (default: all)")
    ap.add_argument("--int-widths", default=None, help="comma-separated integer widths (default: 1,8,...,1000)")
    a = ap.parse_args()
    if a.int_widths:
        INTS[:] = [int(w) for w in a.int_widths.split(",")]
    if a.types:
        TYPES[:] = [t for t in a.types.split(",") if t in FLOATS]
    work = a.keep or tempfile.mkdtemp(prefix="arith-float-fuzz.")
    os.makedirs(work, exist_ok=True)
    done = 0
    for start in range(a.seed, a.seed + a.count, a.batch):
        seeds = list(range(start, min(start + a.batch, a.seed + a.count)))
        progs = [program(s) for s in seeds]
        path = os.path.join(work, "batch.mlir")
        with open(path, "w") as fh:
            fh.write("// -----\n".join(progs))
        want_rc, want, want_err = run(a.mlir_opt, path)
        got_rc, got, got_err = run(a.fuser_opt, path)
        if (want_rc, want) == (got_rc, got):
            done += len(seeds)
            continue
        wc, gc = chunks(want), chunks(got)
        bad = next((i for i in range(max(len(wc), len(gc))) if i >= len(wc) or i >= len(gc) or wc[i] != gc[i]), None)
        if bad is None or bad >= len(seeds):
            # The outputs agree chunk by chunk but the batch did not: find the program alone.
            bad = None
            for i, prog in enumerate(progs):
                one = os.path.join(work, "one.mlir")
                with open(one, "w") as fh:
                    fh.write(prog)
                w, g = run(a.mlir_opt, one), run(a.fuser_opt, one)
                if w[0] < 0:
                    print("skipped seed %d: mlir-opt-19 crashed (exit %d)" % (seeds[i], w[0]))
                    continue
                if w[:2] != g[:2]:
                    bad = i
                    break
                done += 1
            if bad is None:
                continue
        seed = seeds[bad]
        repro = os.path.join(work, "seed-%d.mlir" % seed)
        with open(repro, "w") as fh:
            fh.write(progs[bad])
        w = subprocess.run([a.mlir_opt, "--canonicalize", repro], capture_output=True, text=True)
        g = subprocess.run([a.fuser_opt, "--canonicalize", repro], capture_output=True, text=True)
        print("MISMATCH at seed %d (exit status mlir-opt %d, fuser-opt %d)" % (seed, w.returncode, g.returncode))
        print("reproducer: %s" % repro)
        print("--- input\n%s--- mlir-opt-19\n%s%s--- fuser-opt\n%s%s" % (progs[bad], w.stdout, w.stderr, g.stdout, g.stderr))
        if (w.returncode, w.stdout) == (g.returncode, g.stdout):
            print("(the program alone agrees; the batch differs: exit %d vs %d)" % (want_rc, got_rc))
        return 1
    print("ok: %d programs agree (seeds %d..%d)" % (done, a.seed, a.seed + a.count - 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
