#!/usr/bin/env python3
"""Generate a large generic-form MLIR module for parser/printer throughput tests.

Usage:
    benches/gen_ops.py N [nested] [--seed S] [-o FILE]

The output is a single `"builtin.module"() ({ ... }) : () -> ()` in MLIR's generic
form that `mlir-opt-19 --allow-unregistered-dialect` accepts. It holds one
`"fz.src"` op followed by N-1 unregistered ops drawn at random (fixed seed, so the
output is byte-for-byte reproducible):

    50%  %sI = "fz.matmul"(a, b) {mesh = [0, 1], tile = array<i64: 32, 32>}
    30%  %sI = "fz.add"(a, b)
    20%  %sI = "fz.cast"(a) {axis = K : i64, kind = "bf16_to_f32"}

Every value has type tensor<128x64xbf16>; operands are picked among the 64 most
recently defined values that are visible at that point.

With `nested`, every run of 1000 ops is wrapped in a region op
`"hx.for"(%s0) ({ ^bb0(%ivI: index): ... "hx.yield"() : () -> () }) : (T) -> ()`,
so the file has N/1000 extra region ops (and their yields) and the values defined
inside one loop body are not used by the next.
"""

import argparse
import random
import sys

TENSOR = "tensor<128x64xbf16>"
WINDOW = 64
CHUNK = 1000


def generate(n, nested, seed, out):
    rng = random.Random(seed)
    w = out.write
    w('"builtin.module"() ({\n')
    w('  %%s0 = "fz.src"() {shape = [128, 64]} : () -> %s\n' % TENSOR)
    visible = ["%s0"]  # values an op may use (module level, or current loop body)
    indent = "  "
    bin_ty = "(%s, %s) -> %s" % (TENSOR, TENSOR, TENSOR)
    un_ty = "(%s) -> %s" % (TENSOR, TENSOR)
    for i in range(1, n):
        if nested and (i - 1) % CHUNK == 0:
            w('  "hx.for"(%%s0) ({\n  ^bb0(%%iv%d: index):\n' % i)
            indent = "    "
            visible = ["%s0"]
        window = visible[-WINDOW:]
        pick = rng.random()
        a = rng.choice(window)
        b = rng.choice(window)
        if pick < 0.5:
            w('%s%%s%d = "fz.matmul"(%s, %s) {mesh = [0, 1], tile = array<i64: 32, 32>} : %s\n'
              % (indent, i, a, b, bin_ty))
        elif pick < 0.8:
            w('%s%%s%d = "fz.add"(%s, %s) : %s\n' % (indent, i, a, b, bin_ty))
        else:
            w('%s%%s%d = "fz.cast"(%s) {axis = %d : i64, kind = "bf16_to_f32"} : %s\n'
              % (indent, i, a, i % 7, un_ty))
        visible.append("%%s%d" % i)
        if nested and (i % CHUNK == 0 or i == n - 1):
            w('    "hx.yield"() : () -> ()\n  }) : (%s) -> ()\n' % TENSOR)
            indent = "  "
            visible = ["%s0"]
    w("}) : () -> ()\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of ops (excluding region ops)")
    ap.add_argument("mode", nargs="?", default="flat", choices=["flat", "nested"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("N must be at least 1")
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    try:
        generate(args.n, args.mode == "nested", args.seed, out)
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
