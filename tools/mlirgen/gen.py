#!/usr/bin/env python3
"""Grammar-based random generator of valid MLIR text (for differential testing).

Every module it prints is meant to be accepted by
`mlir-opt-19 --allow-unregistered-dialect`; `--check-count N` verifies that on
seeds 0..N-1. Output is a pure function of (seed, size, form flags): the same
command always prints the same bytes, so a failing seed is a reproducer.

Usage:
  gen.py --seed S [--size N] [--custom | --generic]      one module on stdout
  gen.py --out-dir D --count C [--start S] [--size N]    seeds S..S+C-1 into D/seed-<S>.mlir
  gen.py --check-count N [--start S] [--jobs J]           generate and run mlir-opt-19 on each

Without --custom/--generic the seed decides whether registered ops
(builtin.module, func.*, arith.*) may be written in their custom syntax;
--generic forces the generic form everywhere, --custom allows custom forms.

Design: the generator builds a small tree of Op/Block/Region objects (so that
late decisions, such as a forward reference inside a graph region, can patch
earlier ops) and renders it to text with random whitespace and comments.
Validity rules it relies on are noted where they are enforced; see README.md.
Python 3.11 standard library only.
"""

import argparse
import os
import random
import re
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# Dialect namespaces registered in mlir-opt-19: never use them for unregistered
# ops, opaque types/attributes or as the prefix of an attribute name (a
# registered dialect verifies attributes named `dialect.xxx`).
REGISTERED_DIALECTS = {
    "acc", "affine", "amdgpu", "amx", "arith", "arm_neon", "arm_sme", "arm_sve",
    "async", "bufferization", "builtin", "cf", "complex", "dlti", "emitc", "func",
    "gpu", "index", "irdl", "linalg", "llvm", "math", "memref", "mesh",
    "ml_program", "mpi", "nvgpu", "nvvm", "omp", "pdl", "pdl_interp", "polynomial",
    "ptr", "quant", "rocdl", "scf", "shape", "sparse_tensor", "spirv", "tensor",
    "test", "tosa", "transform", "ub", "vector", "x86vector", "xegpu", "sdbm",
}
DIALECTS = ["fz", "hst", "comm_k", "zz", "q9", "my_d", "x", "fuse", "k_"]
OP_NAMES = ["op0", "op1", "op3", "x", "y", "compute", "yield", "load", "store",
            "a.b", "with-dash", "s$", "launch", "ret", "br", "sw", "z_9"]
INHERENT_KEYS = {"sym_name", "function_type", "arg_attrs", "res_attrs",
                 "sym_visibility", "callee", "value", "predicate", "overflowFlags"}

FLOAT_KINDS = ["f16", "bf16", "f32", "f64", "f80", "f128", "tf32", "f8E5M2",
               "f8E4M3", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E4M3B11FNUZ"]
FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128,
              "tf32": 19, "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8,
              "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8}
# Integer widths: small/odd/common/large. HUGE only appears as a bare type.
INT_WIDTHS = [1, 1, 1, 8, 8, 16, 32, 32, 32, 64, 64, 0, 2, 3, 4, 5, 7, 9, 12, 17,
              24, 31, 33, 48, 63, 65, 127, 128, 129, 256, 512, 1000]
HUGE_WIDTHS = [4096, 65535, 16777215]
CMPI_PREDS = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
ARITH_BIN = ["addi", "subi", "muli", "divsi", "divui", "remsi", "remui"]
BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")


# --------------------------------------------------------------------------- types

class T:
    """A type: `canon` is alias-free text (used for equality), `spell` is what
    the input writes (may contain user aliases). `cls` is the type's kind."""
    __slots__ = ("canon", "spell", "cls", "width", "sign", "attr_ok")

    def __init__(self, canon, cls, spell=None, width=None, sign="", attr_ok=True):
        self.canon = canon
        self.spell = spell if spell is not None else canon
        self.cls = cls
        self.width = width
        self.sign = sign
        self.attr_ok = attr_ok  # may appear inside attribute values (no huge ints)

    def is_signless_int_or_index(self):
        return (self.cls == "int" and self.sign == "") or self.cls == "index"


class Value:
    """An SSA value: `ref` is the use text (`%x`, `%x#1`), `ty` its type."""
    __slots__ = ("ref", "ty")

    def __init__(self, ref, ty):
        self.ref = ref
        self.ty = ty


class Block:
    def __init__(self, label, args):
        self.label = label          # text without '^', or None (entry, unlabeled)
        self.args = args            # list of (Value, loc text or None)
        self.ops = []
        self.show_label = True


class Region:
    def __init__(self):
        self.blocks = []


class Op:
    """A generic-form operation, or a registered op with a custom renderer."""

    def __init__(self, name):
        self.name = name
        self.result_groups = []     # list of (name, [T])
        self.operands = []          # list of Value
        self.successors = []        # list of Block
        self.props = None           # text of the dict body or None
        self.attrs = None           # text of the dict body or None
        self.regions = []
        self.loc = None             # "loc(...)" or None
        self.custom = None          # callable(gen, op, indent) -> text, or None
        self.registered = False
        self.extra = {}

    def results(self):
        vals = []
        for name, tys in self.result_groups:
            if len(tys) == 1:
                vals.append(Value(name, tys[0]))
            else:
                vals.extend(Value(f"{name}#{i}", t) for i, t in enumerate(tys))
        return vals

    def result_types(self):
        return [t for _, tys in self.result_groups for t in tys]


class Ctx:
    """Where a block is being generated: what it may use and contain."""

    def __init__(self, kind, visible, depth, symtab=None, calls_ok=False,
                 func_results=None, ssacfg=False):
        self.kind = kind                  # "module" | "func" | "unreg"
        self.visible = visible            # list of Values dominating the block
        self.depth = depth
        self.symtab = symtab              # list of FuncSig of the nearest module
        self.calls_ok = calls_ok          # func.call resolves here
        self.func_results = func_results  # result types when in a func body
        self.ssacfg = ssacfg
        self.short_ok = False             # parent is a custom-form func.func


class FuncSig:
    def __init__(self, name, inputs, results, visibility, is_decl):
        self.name = name
        self.inputs = inputs
        self.results = results
        self.visibility = visibility
        self.is_decl = is_decl


# --------------------------------------------------------------------------- generator

class Gen:
    def __init__(self, seed, size=40, custom=None):
        self.r = random.Random(seed)
        self.size = size
        self.custom = self.r.random() < 0.6 if custom is None else custom
        self.counter = 0
        self.budget = size
        self.type_aliases = []      # (name, T)
        self.attr_aliases = []      # names of attribute aliases
        self.loc_aliases = []       # names of location aliases
        self.alias_lines = []
        self.used_names = set()
        self.messy = self.r.random() < 0.5   # odd whitespace and comments

    # ----- random helpers
    def p(self, prob):
        return self.r.random() < prob

    def choice(self, seq):
        return self.r.choice(seq)

    def fresh(self):
        self.counter += 1
        return self.counter

    def ws(self):
        """Optional whitespace (maybe a comment) between two tokens."""
        if not self.messy or self.p(0.8):
            return ""
        return self.choice([" ", "  ", "\t", "\n", "\n    ", " \t ", " // c\n",
                            " // " + self.comment_text() + "\n  "])

    def sp(self):
        """Mandatory whitespace between two tokens."""
        if not self.messy or self.p(0.85):
            return " "
        return self.choice(["  ", "\t", "\n", "\n\t  ", " // x\n ", "   "])

    def comment_text(self):
        return "".join(self.choice("abc xyz%^\"'{}()<>#@!é日\\")
                       for _ in range(self.r.randint(0, 12)))

    # ----- names
    def ssa_name(self):
        k = self.fresh()
        style = self.r.randint(0, 6)
        return ["%{}", "%v{}", "%x.{}", "%_t-{}", "%${}", "%arg_{}", "%V{}$"][style].format(k)

    def block_label(self):
        k = self.fresh()
        return self.choice(["bb{}", "b.{}", "blk_{}", "{}", "$b-{}", "L{}"]).format(k)

    def unique_sym(self):
        k = self.fresh()
        return self.choice(["f{}", "fn_{}", "sym.{}", "q w{}", "d-{}", "$s{}", "é{}",
                            "_{}"]).format(k)

    def sym_text(self, name):
        if BARE_KEY.match(name) and self.p(0.85):
            return "@" + name
        return "@" + self.str_lit_of(name)

    def str_lit_of(self, text):
        """Quote `text` (a Python str) as an MLIR string literal, randomly escaped."""
        out = ['"']
        for ch in text:
            o = ord(ch)
            if ch == '"':
                out.append(self.choice(['\\"', "\\22"]))
            elif ch == "\\":
                out.append(self.choice(["\\\\", "\\5C", "\\5c"]))
            elif ch == "\n":
                out.append(self.choice(["\\n", "\\0A", "\\0a"]))
            elif ch == "\t":
                out.append(self.choice(["\\t", "\\09", "\t"]))
            elif o < 0x20 or o == 0x7F:
                out.append("\\%02X" % o)
            elif o > 0x7F and self.p(0.3):
                out.append("".join("\\%02X" % b for b in ch.encode("utf-8")))
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)

    def rand_string_content(self, maxlen=12):
        pieces = []
        for _ in range(self.r.randint(0, maxlen)):
            k = self.r.random()
            if k < 0.6:
                pieces.append(self.choice("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 _-.,:;!?()<>[]{}#@$%^&*+=/|~'`"))
            elif k < 0.75:
                pieces.append(self.choice(['"', "\\", "\n", "\t", "\x00", "\x01", "\x1b", "\x7f"]))
            else:
                pieces.append(self.choice(["é", "ß", "日本", "🙂", "Ω", "\u00a0", "\u200b"]))
        return "".join(pieces)

    def str_attr_lit(self):
        """A string literal, sometimes with raw \\XX escapes of arbitrary bytes."""
        if self.p(0.2):
            body = "".join(self.choice(["\\%02X" % self.r.randint(0, 255),
                                        "\\%02x" % self.r.randint(0, 255), "a", " "])
                           for _ in range(self.r.randint(1, 6)))
            return '"' + body + '"'
        return self.str_lit_of(self.rand_string_content())

    def dict_key_content(self):
        if self.p(0.7):
            d = self.choice(DIALECTS)
            return self.choice(["a", "b", "k", "x", "_u", "z9", "a$b", "A.b.c", "loc",
                                "true", "i32", "dense", "unit", "attr", "a.b",
                                d + ".k", d + ".flag", d + ".x.y", "Zz", "_"]) + (
                self.choice(["", str(self.r.randint(0, 99))]))
        return self.choice(["0x", "a-b", "with space", "$d", ".dot", "é", 'q"k',
                            "tab\t", "nl\n", "~", "1", "-", "a b c", "\\",
                            "日", "Z", "__", "$"]) + self.choice(["", str(self.r.randint(0, 9))])

    def key_text(self, content):
        if BARE_KEY.match(content) and self.p(0.9):
            return content
        return self.str_lit_of(content)

    # ----- integers
    def int_range(self, width, sign):
        if width == 0:
            return 0, 0
        if sign == "u":
            return 0, (1 << width) - 1
        if sign == "s":
            return -(1 << (width - 1)), (1 << (width - 1)) - 1
        return -(1 << (width - 1)), (1 << width) - 1

    def rand_int_in(self, lo, hi):
        k = self.r.random()
        if k < 0.25:
            return self.choice([lo, hi, max(lo, min(hi, 0)), max(lo, min(hi, 1)),
                                max(lo, min(hi, -1)), hi // 2, lo // 2 if lo < 0 else lo])
        if k < 0.6:
            return max(lo, min(hi, self.r.randint(-100, 100)))
        return self.r.randint(lo, hi)

    def int_text(self, v, allow_hex=True):
        if allow_hex and self.p(0.15):
            return ("-" if v < 0 else "") + self.choice(["0x%x", "0x%X", "0x%04X"]) % abs(v)
        return str(v)

    def int_attr_value(self, t):
        """Literal for an integer attribute of type t (int or index)."""
        if t.cls == "index":
            v = self.rand_int_in(-(1 << 63), (1 << 63) - 1)
            return self.int_text(v)
        if t.width == 1:
            return self.choice({"": ["true", "false", "0", "1", "-1"], "s": ["0", "-1"],
                                "u": ["0", "1"]}[t.sign])
        lo, hi = self.int_range(t.width, t.sign)
        return self.int_text(self.rand_int_in(lo, hi))

    # ----- floats
    def float_special_bits(self, kind):
        bits = FLOAT_BITS[kind]
        exp_bits = {"f16": 5, "bf16": 8, "f32": 8, "f64": 11}[kind]
        man = bits - 1 - exp_bits
        exp_all = ((1 << exp_bits) - 1) << man
        sign = 1 << (bits - 1)
        return [0, sign, exp_all, exp_all | sign, exp_all | (1 << (man - 1)),
                exp_all | 1, exp_all | sign | (1 << (man - 1)) | 5, 1, sign | 1,
                (1 << man) - 1, (1 << man), exp_all - 1, sign | (exp_all - 1),
                (((1 << (exp_bits - 1)) - 1) << man)]

    def bits_to_float(self, kind, b):
        if kind == "f64":
            return struct.unpack("<d", struct.pack("<Q", b))[0]
        if kind == "f32":
            return struct.unpack("<f", struct.pack("<I", b))[0]
        if kind == "f16":
            return struct.unpack("<e", struct.pack("<H", b))[0]
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]  # bf16

    def human_decimal(self, max_exp=30):
        mant = "".join(self.choice("0123456789") for _ in range(self.r.randint(1, 20)))
        s = self.choice(["", "-"]) + str(self.r.randint(0, 9)) + "." + mant
        if self.p(0.4):
            s += self.choice(["e", "E"]) + self.choice(["", "+", "-"]) + str(self.r.randint(0, max_exp))
        return self.choice([s, s, "1.0", "0.1", "-0.0", "7.", "2.5E2", "0.5", "1.0e-7",
                            "3.140625", "1234567.0", "1234567.5", "65504.0", "0.0009765625"])

    def float_lit(self, kind):
        """A float literal valid for float type `kind` (decimal or hex bits)."""
        if kind in ("f16", "bf16", "f32", "f64"):
            bits = FLOAT_BITS[kind]
            k = self.r.random()
            if k < 0.3:
                b = self.choice(self.float_special_bits(kind))
            elif k < 0.6:
                b = self.r.getrandbits(bits)
            else:
                return self.human_decimal(300 if kind == "f64" else 40)
            x = self.bits_to_float(kind, b)
            if x != x or x in (float("inf"), float("-inf")) or self.p(0.4):
                return self.choice(["0x%X", "0x%x"]) % b
            s = repr(x)
            if "e" in s and "." not in s:
                s = s.replace("e", ".0e")
            return s
        if kind in ("f80", "f128"):
            if self.p(0.15):
                return self.choice({"f80": ["0x7FFF8000000000000000", "0xFFFF8000000000000000",
                                            "0x7FFFC000000000000000", "0x3FFF8000000000000000",
                                            "0x1"],
                                    "f128": ["0x7FFF0000000000000000000000000000",
                                             "0x7FFF8000000000000000000000000000",
                                             "0x3FFF0000000000000000000000000000", "0x1"]}[kind])
            return self.human_decimal(300)
        # tf32 and 8-bit floats: any bit pattern in range, or a decimal.
        if self.p(0.4):
            return "0x%X" % self.r.getrandbits(FLOAT_BITS[kind])
        return self.choice(["0.3", "1.5", "-2.0", "0.0", "-0.0", "448.0", "1000.0",
                            "1.0e-3", "0.125", "57344.0", "3.0e-5", "240.0"])

    # ----- types
    def t_int(self, huge_ok=False):
        if huge_ok and self.p(0.03):
            w = self.choice(HUGE_WIDTHS)
            return T("i%d" % w, "int", width=w, attr_ok=False)
        w = self.choice(INT_WIDTHS)
        sign = self.choice(["", "", "", "s", "u"])
        return T("%si%d" % (sign, w), "int", width=w, sign=sign)

    def t_signless(self):
        if self.p(0.25):
            return T("index", "index")
        w = self.choice([1, 8, 16, 32, 32, 64, 64, 3, 17, 128])
        return T("i%d" % w, "int", width=w)

    def t_float(self):
        k = self.choice(FLOAT_KINDS + ["f32", "f64", "f16", "bf16"])
        return T(k, "float", width=FLOAT_BITS[k])

    def t_scalar(self):
        k = self.r.random()
        if k < 0.5:
            return self.t_int()
        if k < 0.65:
            return T("index", "index")
        return self.t_float()

    def wrap(self, canon, spell, cls, **kw):
        return T(canon, cls, spell=spell, **kw)

    def maybe_alias(self, t):
        """Sometimes spell a type through a user alias of the same canonical type."""
        if self.type_aliases and self.p(0.35):
            names = [n for n, at in self.type_aliases if at.canon == t.canon]
            if names:
                return T(t.canon, t.cls, spell="!" + self.choice(names), width=t.width,
                         sign=t.sign, attr_ok=t.attr_ok)
        return t

    def gen_type(self, depth=0, huge_ok=False):
        if self.type_aliases and self.p(0.12):
            name, t = self.choice(self.type_aliases)
            return T(t.canon, t.cls, spell="!" + name, width=t.width, sign=t.sign,
                     attr_ok=t.attr_ok)
        k = self.r.random()
        if depth >= 3 or k < 0.45:
            return self.t_scalar() if not huge_ok else self.choice([self.t_scalar(), self.t_int(True)])
        k = self.r.random()
        if k < 0.2:
            return self.t_tensor(depth)
        if k < 0.35:
            return self.t_vector()
        if k < 0.5:
            return self.t_memref(depth)
        if k < 0.58:
            return self.t_complex()
        if k < 0.66:
            return self.t_tuple(depth)
        if k < 0.73:
            return self.t_function(depth)
        if k < 0.77:
            return T("none", "none")
        return self.t_opaque()

    def t_complex(self):
        e = self.t_int() if self.p(0.3) else self.t_float()
        e = self.maybe_alias(e)
        return T("complex<%s>" % e.canon, "complex", spell="complex<%s%s%s>" % (self.ws(), e.spell, self.ws()),
                 width=e.width)

    def t_tuple(self, depth):
        elems = [self.gen_type(depth + 1) for _ in range(self.r.randint(0, 3))]
        return T("tuple<%s>" % ", ".join(e.canon for e in elems), "tuple",
                 spell="tuple<%s>" % ("," + self.ws()).join(e.spell for e in elems),
                 attr_ok=all(e.attr_ok for e in elems))

    def t_function(self, depth):
        ins = [self.gen_type(depth + 1) for _ in range(self.r.randint(0, 3))]
        outs = [self.gen_type(depth + 1) for _ in range(self.r.randint(0, 3))]
        canon = "(%s) -> %s" % (", ".join(e.canon for e in ins), self.results_text([e.canon for e in outs], [e.cls for e in outs]))
        spell = "(%s)%s->%s%s" % (", ".join(e.spell for e in ins), self.ws(), self.ws(),
                                  self.results_text([e.spell for e in outs], [e.cls for e in outs], loose=True))
        return T(canon, "func", spell=spell, attr_ok=all(e.attr_ok for e in ins + outs))

    def results_text(self, texts, classes, loose=False):
        if len(texts) == 1 and classes[0] != "func" and (not loose or self.p(0.7)):
            return texts[0]
        return "(" + ", ".join(texts) + ")"

    def dims(self, rank, dyn=True, zero=True):
        out = []
        for _ in range(rank):
            if dyn and self.p(0.2):
                out.append("?")
            else:
                out.append(str(self.r.randint(0 if zero else 1, 9)))
        return out

    def elem_type(self, allowed, depth):
        """An element type among classes `allowed` (for tensors/memrefs/vectors)."""
        while True:
            k = self.r.random()
            if k < 0.45:
                t = self.t_int()
            elif k < 0.55:
                t = T("index", "index")
            elif k < 0.8:
                t = self.t_float()
            elif k < 0.87:
                t = self.t_complex()
            elif k < 0.93 and depth < 2:
                t = self.t_vector()
            elif k < 0.97 and depth < 2:
                t = self.t_memref(depth + 1)
            else:
                t = self.t_opaque()
            if t.cls in allowed:
                return self.maybe_alias(t)

    def t_tensor(self, depth):
        e = self.elem_type({"int", "index", "float", "complex", "vector", "opaque"}, depth)
        if self.p(0.15):
            return T("tensor<*x%s>" % e.canon, "tensor", spell="tensor<*x%s>" % e.spell, attr_ok=e.attr_ok)
        ds = self.dims(self.r.randint(0, 4))
        shape = "".join(d + "x" for d in ds)
        enc_c = enc_s = ""
        if self.p(0.2):
            enc = self.gen_attr(depth=2, no_alias_types=True)
            while enc.startswith(("array<", "#", "strided<")):
                enc = self.gen_attr(depth=2, no_alias_types=True)
            enc_c = enc_s = ", " + enc
        return T("tensor<%s%s%s>" % (shape, e.canon, enc_c), "tensor",
                 spell="tensor<%s%s%s%s>" % (self.ws(), shape, e.spell, enc_s), attr_ok=e.attr_ok)

    def t_vector(self):
        e = self.maybe_alias(self.elem_type({"int", "index", "float"}, 3))
        if self.p(0.1):
            return T("vector<%s>" % e.canon, "vector", spell="vector<%s>" % e.spell, attr_ok=e.attr_ok)
        ds = []
        for _ in range(self.r.randint(1, 3)):
            n = str(self.r.randint(1, 8))
            ds.append("[%s]" % n if self.p(0.2) else n)
        shape = "x".join(ds) + "x"
        return T("vector<%s%s>" % (shape, e.canon), "vector",
                 spell="vector<%s%s>" % (shape, e.spell), attr_ok=e.attr_ok)

    def memory_space(self):
        k = self.r.random()
        if k < 0.5:
            return ""
        if k < 0.8:
            v = self.r.randint(-3, 7)
            return ", %d%s" % (v, self.choice(["", " : i64", " : i32", " : i8", " : ui16"]) if v >= 0 else "")
        if k < 0.9:
            return ", " + self.str_attr_lit()
        return ", {%s = %d : i32}" % (self.choice(["space", "fz.k", "a"]), self.r.randint(0, 5))

    def t_memref(self, depth):
        e = self.elem_type({"int", "index", "float", "complex", "vector", "memref"}, depth + 1)
        if self.p(0.15):
            s = "memref<*x%s%s>" % (e.spell, self.memory_space())
            return T(s.replace(e.spell, e.canon, 1) if e.spell != e.canon else s, "memref",
                     spell=s, attr_ok=e.attr_ok)
        rank = self.r.randint(0, 3)
        ds = self.dims(rank)
        layout = ""
        k = self.r.random()
        if k < 0.25:
            strides = [self.choice(["?", str(self.r.choice([1, 2, 4, 8, -1, 16]))]) for _ in range(rank)]
            off = self.choice(["", "", ", offset: 0", ", offset: ?", ", offset: %d" % self.r.randint(-5, 20)])
            layout = ", strided<[%s]%s>" % (", ".join(strides), off)
        elif k < 0.45:
            layout = ", " + self.affine_map(ndims=rank)
        ms = self.memory_space()
        body = "".join(d + "x" for d in ds)
        canon = "memref<%s%s%s%s>" % (body, e.canon, layout, ms)
        spell = "memref<%s%s%s%s>" % (body, e.spell, layout, ms)
        return T(canon, "memref", spell=spell, attr_ok=e.attr_ok)

    def opaque_body(self, depth=0):
        parts = []
        for _ in range(self.r.randint(0, 5)):
            k = self.r.random()
            if k < 0.5 or depth > 2:
                parts.append(self.choice(["a", "b1", "x", "?", "*", "4x8", "i32", ",", ", ", ":", " ",
                                          "  ", "=", "+", "_q", "1.5", "@s", "#t", "!u", "."]))
            elif k < 0.6:
                parts.append(self.choice(['"s"', '"a>b"', '"q\\"q"', '"\\n"', '"}{"']))
            else:
                o, c = self.choice([("<", ">"), ("(", ")"), ("[", "]"), ("{", "}")])
                parts.append(o + self.opaque_body(depth + 1) + c)
        return "".join(parts)

    def t_opaque(self):
        d = self.choice(DIALECTS)
        k = self.r.random()
        if k < 0.35:
            s = "!%s.%s" % (d, self.choice(["t", "tok", "buf", "x9", "a_b", "stream"]))
        elif k < 0.75:
            s = "!%s.%s<%s>" % (d, self.choice(["t", "ptr", "buf", "arr"]), self.opaque_body())
        elif k < 0.88:
            s = "!%s<%s>" % (d, self.str_lit_of(self.rand_string_content(6)))
        else:
            s = "!%s<%s<%s>>" % (d, self.choice(["t", "ptr"]), self.opaque_body())
        return T(s, "opaque")

    # ----- affine
    def affine_expr(self, dims, syms, depth=0):
        """Returns (text, has_dims, const_value or None)."""
        k = self.r.random()
        if depth >= 3 or k < 0.35:
            j = self.r.random()
            if dims and j < 0.5:
                return self.choice(dims), True, None
            if syms and j < 0.75:
                return self.choice(syms), False, None
            c = self.r.randint(-20, 20)
            return str(c), False, c
        a, ad, _ = self.affine_expr(dims, syms, depth + 1)
        op = self.choice(["+", "-", "*", "floordiv", "ceildiv", "mod", "neg", "+"])
        if op == "neg":
            return "-(%s)" % a, ad, None
        if op in ("+", "-"):
            b, bd, _ = self.affine_expr(dims, syms, depth + 1)
            return "(%s %s %s)" % (a, op, b), ad or bd, None
        if op == "*":
            b, bd, _ = self.affine_expr(dims, syms, depth + 1)
            if ad and bd:
                b, bd = str(self.r.randint(-4, 6)), False
            return "(%s * %s)" % ((a, b) if self.p(0.5) else (b, a)), ad or bd, None
        # floordiv / ceildiv / mod: right side constant > 0 or a symbol expression
        if syms and self.p(0.2):
            rhs = self.choice(syms)
        else:
            rhs = str(self.r.randint(1, 9))
        return "(%s %s %s)" % (a, op, rhs), ad, None

    def affine_names(self, n, prefix):
        style = self.r.randint(0, 2)
        if style == 0:
            return ["%s%d" % (prefix, i) for i in range(n)]
        if style == 1:
            return ["%s%s" % (self.choice("ijk" if prefix == "d" else "mnp"), i) for i in range(n)]
        return ["%s_%d" % ({"d": "x", "s": "N"}[prefix], i) for i in range(n)]

    def affine_map(self, ndims=None):
        nd = self.r.randint(0, 3) if ndims is None else ndims
        ns = self.r.randint(0, 2)
        dims = self.affine_names(nd, "d")
        syms = self.affine_names(ns, "s")
        nres = self.r.randint(0, 3) if ndims is None else self.r.randint(1, 3)
        res = [self.affine_expr(dims, syms)[0] for _ in range(nres)]
        sym_part = "[%s]" % ", ".join(syms) if (syms or self.p(0.2)) else ""
        return "affine_map<(%s)%s -> (%s)>" % (", ".join(dims), sym_part, ", ".join(res))

    def affine_set(self):
        nd = self.r.randint(0, 3)
        ns = self.r.randint(0, 2)
        dims = self.affine_names(nd, "d")
        syms = self.affine_names(ns, "s")
        cons = []
        for _ in range(self.r.randint(1, 3)):
            e = self.affine_expr(dims, syms)[0]
            cons.append("%s %s" % (e, self.choice([">= 0", "== 0", ">= 3", "== -2"])))
        sym_part = "[%s]" % ", ".join(syms) if syms else ""
        return "affine_set<(%s)%s : (%s)>" % (", ".join(dims), sym_part, ", ".join(cons))

    # ----- attributes
    def typed_int_attr(self):
        t = self.t_int() if self.p(0.8) else T("index", "index")
        v = self.int_attr_value(t)
        if t.cls == "int" and t.width == 1 and t.sign == "" and v in ("true", "false"):
            return v
        t = self.maybe_alias(t)
        return "%s%s:%s%s" % (v, self.sp(), self.ws(), t.spell)

    def float_attr(self):
        t = self.t_float()
        lit = self.float_lit(t.canon)
        if t.canon == "f64" and not lit.lstrip("-").startswith("0x") and self.p(0.4):
            return lit
        return "%s : %s" % (lit, self.maybe_alias(t).spell)

    def dense_elem_type(self):
        k = self.r.random()
        if k < 0.4:
            return self.t_int()
        if k < 0.5:
            return T("index", "index")
        if k < 0.8:
            return self.t_float()
        if k < 0.93:
            e = self.t_int() if self.p(0.3) else self.t_float()
            if e.cls == "int" and e.width < 2:
                e = T("i16", "int", width=16)
            return T("complex<%s>" % e.canon, "complex", width=e.width)
        return T(self.choice(["!fz.str", "!hx.s", "!zz<\"str\">"]), "opaque")

    def dense_elem_lit(self, et):
        if et.cls == "int" or et.cls == "index":
            if et.cls == "int" and et.width == 1:
                return self.choice({"": ["true", "false", "1", "0"], "s": ["true", "false", "-1", "0"],
                                    "u": ["true", "false", "1", "0"]}[et.sign])
            lo, hi = self.int_range(et.width, et.sign) if et.cls == "int" else (-(1 << 63), (1 << 63) - 1)
            return self.int_text(self.rand_int_in(lo, hi))
        if et.cls == "float":
            return self.float_lit(et.canon)
        if et.cls == "complex":
            inner = et.canon[len("complex<"):-1]
            if inner in FLOAT_BITS:
                a, b = self.float_lit(inner), self.float_lit(inner)
            else:
                w = int(inner.lstrip("sui")) if inner.lstrip("sui").isdigit() else 32
                sign = inner[0] if inner[0] in "su" else ""
                if w == 1:
                    a, b = self.choice(["0", "1", "true"]), self.choice(["0", "1", "false"])
                else:
                    lo, hi = self.int_range(w, sign)
                    a, b = str(self.rand_int_in(lo, hi)), str(self.rand_int_in(lo, hi))
            return "(%s,%s%s)" % (a, self.ws(), b)
        return self.str_attr_lit()

    def nested_list(self, shape, leaf):
        if not shape:
            return leaf()
        return "[" + ", ".join(self.nested_list(shape[1:], leaf) for _ in range(shape[0])) + "]"

    def hex_dense(self, et, n):
        if et.cls == "int":
            nbytes = (et.width + 7) // 8
        elif et.cls == "index":
            nbytes = 8
        elif et.cls == "float":
            nbytes = 4 if et.canon == "tf32" else (FLOAT_BITS[et.canon] + 7) // 8
        else:
            inner = et.canon[len("complex<"):-1]
            w = 32 if inner == "tf32" else (FLOAT_BITS.get(inner) or int(inner.lstrip("sui")))
            nbytes = 2 * ((w + 7) // 8)
        data = bytes(self.r.getrandbits(8) for _ in range(nbytes * n))
        return '"0x%s"' % data.hex().upper()

    def dense_attr(self):
        et = self.dense_elem_type()
        if et.cls == "int" and et.width == 0:
            et = T("i8", "int", width=8)
        is_vec = et.cls in ("int", "index", "float") and self.p(0.25)
        if self.p(0.1):
            shape = [self.r.randint(101, 260)]
        elif self.p(0.15):
            shape = []
        else:
            shape = [self.r.randint(0 if not is_vec else 1, 4) for _ in range(self.r.randint(1, 3))]
        n = 1
        for d in shape:
            n *= d
        if is_vec and not shape:
            shape = [self.r.randint(1, 4)]
            n = shape[0]
        ty = "%s<%s%s>" % ("vector" if is_vec else "tensor", "".join("%dx" % d for d in shape), et.canon)
        k = self.r.random()
        # mlir-opt-19 keeps the padding bits of hex data for integer widths that are not a
        # multiple of 8 (docs/dev/mlir-print-rules.md, "Known divergences"): no hex for those.
        odd_int = et.cls == "int" and et.width % 8 != 0
        can_hex = et.cls != "opaque" and not odd_int and n <= 300
        if n == 0:
            body = self.choice(["", self.dense_elem_lit(et)] + (["[]"] if len(shape) == 1 else []))
        elif k < 0.2 or not shape:
            body = self.dense_elem_lit(et)                       # splat
        elif k < 0.3:
            v = self.dense_elem_lit(et)                          # list of equal values
            body = self.nested_list(shape, lambda: v)
        elif k < 0.4 and can_hex:
            body = self.hex_dense(et, self.choice([n, 1]))
        else:
            body = self.nested_list(shape, lambda: self.dense_elem_lit(et))
        return "dense<%s>%s:%s%s" % (body, self.sp(), self.ws(), ty)

    def dense_array_attr(self):
        k = self.r.random()
        if k < 0.15:
            et, lit = "i1", lambda: self.choice(["true", "false"])
        elif k < 0.65:
            w = self.choice([8, 16, 32, 64, 24, 128])
            sign = self.choice(["", "", "s", "u"])
            lo, hi = self.int_range(w, sign)
            et = "%si%d" % (sign, w)
            lit = lambda: self.int_text(self.rand_int_in(lo, hi), allow_hex=(sign == ""))
        else:
            et = self.choice(["f16", "bf16", "f32", "f64"] * 4 + ["f80", "f128", "f8E5M2", "f8E4M3FN"])
            lit = lambda: self.float_lit(et)
        n = self.r.randint(0, 6)
        if n == 0:
            return "array<%s>" % et
        return "array<%s:%s%s>" % (et, self.ws(), ", ".join(lit() for _ in range(n)))

    def opaque_attr(self):
        d = self.choice(DIALECTS)
        k = self.r.random()
        if k < 0.3:
            s = "#%s.%s" % (d, self.choice(["a", "flag", "layout", "x_1"]))
        elif k < 0.7:
            s = "#%s.%s<%s>" % (d, self.choice(["a", "q", "enc"]), self.opaque_body())
        elif k < 0.85:
            s = "#%s<%s>" % (d, self.str_lit_of(self.rand_string_content(6)))
        else:
            s = "#%s<%s<%s>>" % (d, self.choice(["q", "m"]), self.opaque_body())
        if self.p(0.15):
            s += " : " + self.t_scalar().canon
        return s

    def loc_attr_free(self, depth):
        return self.gen_attr(depth + 1)

    def gen_attr(self, depth=0, no_alias_types=False):
        """Any attribute value (text)."""
        if self.attr_aliases and self.p(0.08):
            return "#" + self.choice(self.attr_aliases)
        k = self.r.random()
        if depth >= 4:
            k = k * 0.55
        if k < 0.14:
            return self.typed_int_attr()
        if k < 0.18:
            return self.int_text(self.r.randint(-(1 << 63), (1 << 63) - 1))  # i64
        if k < 0.26:
            return self.float_attr()
        if k < 0.30:
            return self.choice(["true", "false", "unit"])
        if k < 0.38:
            return self.str_attr_lit() + (" : " + self.t_scalar().canon if self.p(0.1) else "")
        if k < 0.42:
            t = self.gen_type(2)
            return t.spell if t.attr_ok and not no_alias_types else t.canon
        if k < 0.45:
            return self.choice([self.sym_text(self.unique_sym()),
                                "%s::%s" % (self.sym_text(self.unique_sym()), self.sym_text(self.unique_sym()))])
        if k < 0.48:
            return self.affine_map()
        if k < 0.50:
            return self.affine_set()
        if k < 0.55:
            return self.opaque_attr()
        if k < 0.57:
            return "strided<[%s]%s>" % (", ".join(self.choice(["1", "?", "4", "-2"]) for _ in range(self.r.randint(0, 3))),
                                        self.choice(["", ", offset: ?", ", offset: 3"]))
        if k < 0.66:
            return self.dense_attr()
        if k < 0.72:
            return self.dense_array_attr()
        if k < 0.86:
            return "[" + ("," + self.ws()).join(self.gen_attr(depth + 1) for _ in range(self.r.randint(0, 4))) + "]"
        return "{" + self.dict_body(depth + 1) + "}"

    def dict_body(self, depth=0, n=None, registered=False, dialect_keys=False):
        n = self.r.randint(0, 4) if n is None else n
        seen = set()
        items = []
        for _ in range(n):
            c = self.dict_key_content()
            if dialect_keys and "." not in c:
                c = self.choice(DIALECTS) + "." + c
            prefix = c.split(".")[0]
            if c in seen or (registered and c in INHERENT_KEYS) or ("." in c and prefix in REGISTERED_DIALECTS):
                continue
            seen.add(c)
            kt = self.key_text(c)
            if self.p(0.15):
                items.append(kt)
            else:
                items.append("%s%s=%s%s" % (kt, self.ws(), self.ws(), self.gen_attr(depth)))
        return ("," + self.ws()).join(items)

    # ----- locations
    def file_line_col(self):
        f = self.choice(["f.mlir", "a.py", "", "dir/x.cc", "sp ace.c", 'q"t.c', "é.mlir", "<stdin>"])
        return "%s:%d:%d" % (self.str_lit_of(f), self.choice([0, 1, 7, 100, self.r.randint(0, 4294967295)]),
                             self.choice([0, 1, 3, 80, self.r.randint(0, 4294967295)]))

    def loc_inner(self, depth=0):
        k = self.r.random()
        if self.loc_aliases and k < 0.1:
            return "#" + self.choice(self.loc_aliases)
        if depth >= 3 or k < 0.3:
            return self.file_line_col()
        if k < 0.4:
            return "unknown"
        if k < 0.55:
            name = self.str_lit_of(self.choice(["n", "mul", "", "a b", "x\"y", "é"]))
            if self.p(0.5):
                return "%s(%s)" % (name, self.loc_inner(depth + 1))
            return name
        if k < 0.75:
            return "callsite(%s at %s)" % (self.loc_inner(depth + 1), self.loc_inner(depth + 1))
        items = ", ".join(self.loc_inner(depth + 1) for _ in range(self.r.randint(0, 3)))
        if self.p(0.4):
            return "fused<%s>[%s]" % (self.gen_attr(3), items)
        return "fused[%s]" % items

    def loc(self, prob=0.3):
        if not self.p(prob):
            return None
        return "loc(%s)" % self.loc_inner()

    # ----- aliases at the top of the file
    def gen_aliases(self):
        for _ in range(self.r.randint(0, 4) if self.p(0.5) else 0):
            name = "%s%d" % (self.choice(["t", "ty_", "T", "my_t$", "_tt"]), self.fresh())
            t = self.gen_type(1)
            self.alias_lines.append("!%s%s=%s%s" % (name, self.ws(), self.ws(), t.spell))
            self.type_aliases.append((name, t))
        for _ in range(self.r.randint(0, 3) if self.p(0.4) else 0):
            name = "%s%d" % (self.choice(["a", "at_", "A", "cfg"]), self.fresh())
            self.alias_lines.append("#%s = %s" % (name, self.gen_attr(2)))
            self.attr_aliases.append(name)
        for _ in range(self.r.randint(0, 3) if self.p(0.3) else 0):
            name = "%s%d" % (self.choice(["loc", "L", "l_"]), self.fresh())
            self.alias_lines.append("#%s = loc(%s)" % (name, self.loc_inner()))
            self.loc_aliases.append(name)

    # ----- values
    def find_value(self, ctx, local, pred):
        cands = [v for v in local if pred(v.ty)] + [v for v in ctx.visible if pred(v.ty)]
        if cands and self.p(0.9):
            return self.choice(cands)
        return None

    def value_of(self, ctx, local, ops, t):
        """A value of exactly type t, creating a producer op when needed."""
        v = self.find_value(ctx, local, lambda ty: ty.canon == t.canon)
        if v is not None:
            return v
        if t.is_signless_int_or_index() and (t.cls == "index" or t.width <= 128) and self.p(0.7):
            op = self.arith_constant(t)
        else:
            op = Op("%s.%s" % (self.choice(DIALECTS), self.choice(["mk", "src", "def", "c"])))
            op.result_groups = [(self.ssa_name(), [t])]
            op.loc = self.loc(0.1)
        ops.append(op)
        res = op.results()
        local.extend(res)
        return res[0]

    def result_groups(self, types):
        groups = []
        i = 0
        n = len(types)
        single_group = self.p(0.7)
        while i < n:
            take = n - i if single_group else self.r.randint(1, n - i)
            groups.append((self.ssa_name(), types[i:i + take]))
            i += take
        return groups

    # ----- registered ops
    def arith_constant(self, t):
        op = Op("arith.constant")
        op.registered = True
        op.result_groups = [(self.ssa_name(), [t])]
        if t.cls == "int" and t.width == 1:
            val = self.choice(["true", "false"])
            typed = self.choice([val, val, "%d : i1" % (val == "true")])
        else:
            lo, hi = self.int_range(t.width, "") if t.cls == "int" else (-(1 << 63), (1 << 63) - 1)
            typed = "%s : %s" % (self.int_text(self.rand_int_in(lo, hi)), self.maybe_alias(t).spell)
        op.extra["value"] = typed
        op.attrs = self.dict_body(3, self.r.randint(1, 2), registered=True) if self.p(0.1) else None
        op.loc = self.loc(0.2)
        if self.use_custom():
            op.custom = render_arith_constant
        else:
            op.props = "value = " + typed
        return op

    def use_custom(self):
        return self.custom and self.p(0.7)

    def arith_op(self, ctx, local, ops):
        kind = self.choice(ARITH_BIN + ["cmpi", "cmpi", "select", "index_cast", "constant"])
        t = self.t_signless()
        if self.p(0.1):
            t = self.choice([T("vector<4xi32>", "vector"), T("tensor<2x3xindex>", "tensor"),
                             T("vector<[2]xi8>", "vector")])
        if kind == "constant":
            if t.cls in ("vector", "tensor"):
                t = T("index", "index")
            return self.arith_constant(t)
        op = Op("arith." + kind)
        op.registered = True
        op.loc = self.loc(0.2)
        if self.p(0.15):
            op.attrs = self.dict_body(3, self.r.randint(1, 2), registered=True)
        custom = self.use_custom()
        if kind == "index_cast":
            if t.cls in ("vector", "tensor"):
                t = T("index", "index")
            w = self.choice([8, 32, 64, 1, 128])
            other = T("i%d" % w, "int", width=w)
            src, dst = (t, other) if (t.cls == "index") == self.p(0.5) else (other, t)
            if src.cls != "index" and dst.cls != "index":
                src = T("index", "index")
            op.operands = [self.value_of(ctx, local, ops, src)]
            op.result_groups = [(self.ssa_name(), [dst])]
            op.extra["types"] = (src, dst)
        elif kind == "select":
            cond_t = T("i1", "int", width=1)
            if t.cls in ("vector", "tensor") and self.p(0.5):
                cond_t = T(re.sub(r"x(i\d+|index)>", "xi1>", t.canon), t.cls)
            op.operands = [self.value_of(ctx, local, ops, cond_t), self.value_of(ctx, local, ops, t),
                           self.value_of(ctx, local, ops, t)]
            op.result_groups = [(self.ssa_name(), [t])]
        else:
            op.operands = [self.value_of(ctx, local, ops, t), self.value_of(ctx, local, ops, t)]
            if kind == "cmpi":
                rt = T("i1", "int", width=1) if t.cls not in ("vector", "tensor") else \
                    T(re.sub(r"x(i\d+|index)>", "xi1>", t.canon), t.cls)
                op.result_groups = [(self.ssa_name(), [rt])]
                op.extra["pred"] = self.r.randint(0, 9)
                if not custom:
                    pr = "predicate = %d : i64" % op.extra["pred"]
                    if self.p(0.2):
                        op.attrs = pr + (", " + op.attrs if op.attrs else "")
                    else:
                        op.props = pr
            else:
                op.result_groups = [(self.ssa_name(), [t])]
                if kind in ("addi", "subi", "muli") and self.p(0.5):
                    op.extra["ovf"] = self.choice(["nsw", "nuw", "nsw, nuw", "nuw, nsw", "none"])
                    if not custom:
                        op.props = "overflowFlags = #arith.overflow<%s>" % op.extra["ovf"]
        if custom:
            op.custom = render_arith
        return op

    def call_op(self, ctx, local, ops):
        f = self.choice(ctx.symtab)
        op = Op("func.call")
        op.registered = True
        op.operands = [self.value_of(ctx, local, ops, t) for t in f.inputs]
        if f.results:
            op.result_groups = self.result_groups(f.results)
        op.extra["callee"] = self.sym_text(f.name)
        op.extra["fn"] = f
        op.loc = self.loc(0.2)
        if self.p(0.15):
            op.attrs = self.dict_body(3, 1, registered=True)
        if self.use_custom():
            op.custom = render_call
            op.extra["short"] = ctx.short_ok and self.p(0.5)
        else:
            op.props = "callee = " + op.extra["callee"]
        return op

    def return_op(self, ctx, local, ops):
        op = Op("func.return")
        op.registered = True
        op.operands = [self.value_of(ctx, local, ops, t) for t in ctx.func_results]
        op.loc = self.loc(0.2)
        if self.use_custom():
            op.custom = render_return
            op.extra["short"] = ctx.short_ok and self.p(0.6)
        return op

    # ----- unregistered ops
    def unreg_op(self, ctx, local, ops, allow_regions=True):
        op = Op("%s.%s" % (self.choice(DIALECTS), self.choice(OP_NAMES)))
        if self.p(0.02):
            op.name = self.choice(['fz.a\\22b', 'hx.é', 'x.tab\\09', 'fz.Q w'])
        avail = local + ctx.visible
        for _ in range(self.r.randint(0, 4) if avail else 0):
            op.operands.append(self.choice(avail))
        if self.p(0.1):
            op.operands.append(self.value_of(ctx, local, ops, self.gen_type()))
        nres = self.choice([0, 0, 1, 1, 1, 1, 2, 3])
        if nres:
            tys = []
            for _ in range(nres):
                if avail and self.p(0.3):
                    tys.append(self.choice(avail).ty)
                else:
                    tys.append(self.gen_type(huge_ok=True))
            op.result_groups = self.result_groups(tys)
        if self.p(0.25):
            op.props = self.dict_body(1)
        if self.p(0.4):
            op.attrs = self.dict_body(1)
        op.loc = self.loc()
        if allow_regions and ctx.depth < 6 and self.budget > 0 and self.p(0.25):
            for _ in range(self.r.randint(1, 3) if self.p(0.8) else 0):
                op.regions.append(self.gen_region(ctx, local))
        return op

    def gen_region(self, ctx, local):
        reg = Region()
        nblocks = self.choice([0, 1, 1, 1, 1, 2, 3]) if self.budget > 0 else self.choice([0, 1])
        inner_visible = ctx.visible + local
        blocks = []
        for i in range(nblocks):
            args = []
            if self.p(0.35 if i == 0 else 0.5):
                for _ in range(self.r.randint(1, 3)):
                    args.append((Value(self.ssa_name(), self.gen_type()), self.loc(0.25)))
            b = Block(self.block_label() if (i > 0 or args or self.p(0.3)) else None, args)
            blocks.append(b)
        reg.blocks = blocks
        entry_vals = []
        for i, b in enumerate(blocks):
            vis = inner_visible + (entry_vals if i > 0 else [])
            sub = Ctx("unreg", vis, ctx.depth + 1, symtab=ctx.symtab, calls_ok=False)
            vals = self.fill_block(sub, b, blocks, i, multi=nblocks > 1)
            if i == 0:
                entry_vals = vals
        return reg

    # ----- blocks
    def fill_block(self, ctx, block, blocks, index, multi):
        """Generates the ops of `block`; returns the values it defines."""
        local = [v for v, _ in block.args]
        ops = block.ops
        n = self.r.randint(0 if not multi else 1, 5 if ctx.depth < 2 else 3)
        if ctx.kind == "module":
            n = self.r.randint(0, 3)
        for _ in range(n):
            if self.budget <= 0 and ops:
                break
            self.budget -= 1
            k = self.r.random()
            if k < 0.22 and ctx.kind != "module" or k < 0.1:
                op = self.arith_op(ctx, local, ops)
            elif k < 0.3 and ctx.calls_ok and ctx.symtab:
                op = self.call_op(ctx, local, ops)
            else:
                op = self.unreg_op(ctx, local, ops)
            ops.append(op)
            local.extend(op.results())
        # terminator
        later = [b for b in blocks[1:]]
        needs_term = ctx.kind == "func" or (multi and ctx.kind != "module")
        if ctx.kind == "func" and (not later or self.p(0.5)):
            ops.append(self.return_op(ctx, local, ops))
        elif multi and later and self.p(0.7):
            op = self.unreg_op(ctx, local, ops, allow_regions=False)
            op.result_groups = [] if self.p(0.7) else op.result_groups
            op.successors = [self.choice(later) for _ in range(self.r.randint(1, 3))]
            ops.append(op)
        elif needs_term and (not ops or ops[-1].registered):
            ops.append(self.unreg_op(ctx, local, ops, allow_regions=False))
        elif ops and ops[-1].registered and ctx.kind == "unreg" and multi:
            ops.append(self.unreg_op(ctx, local, ops, allow_regions=False))
        if ctx.kind == "unreg" and not ctx.ssacfg and not multi and self.p(0.15):
            self.add_forward_ref(ops)
        return local

    def add_forward_ref(self, ops):
        """Graph region: let an earlier unregistered op use a later value."""
        for _ in range(3):
            if len(ops) < 2:
                return
            i = self.r.randrange(len(ops) - 1)
            j = self.r.randrange(i + 1, len(ops))
            if ops[i].registered or not ops[j].result_groups:
                continue
            ops[i].operands.append(self.choice(ops[j].results()))
            return

    # ----- functions and modules
    def plan_funcs(self, n):
        funcs = []
        for _ in range(n):
            ins = [self.gen_type(1) for _ in range(self.r.randint(0, 3))]
            outs = [self.gen_type(1) for _ in range(self.r.randint(0, 2))]
            is_decl = self.p(0.25)
            vis = self.choice(["private", "nested"]) if is_decl else self.choice([None, None, "public", "private", "nested"])
            funcs.append(FuncSig(self.unique_sym(), ins, outs, vis, is_decl))
        return funcs

    def func_op(self, f, symtab):
        op = Op("func.func")
        op.registered = True
        op.extra["fn"] = f
        op.extra["arg_attrs"] = [self.dict_body(2, self.r.randint(1, 2), registered=True, dialect_keys=True) if self.p(0.2) else ""
                                 for _ in f.inputs]
        op.extra["res_attrs"] = [self.dict_body(2, self.r.randint(1, 2), registered=True, dialect_keys=True) if self.p(0.2) else ""
                                 for _ in f.results]
        op.attrs = self.dict_body(2, self.r.randint(1, 3), registered=True) if self.p(0.25) else None
        op.loc = self.loc(0.3)
        custom = self.use_custom()
        if not f.is_decl:
            reg = Region()
            nblocks = self.choice([1, 1, 1, 2, 3])
            blocks = []
            for i in range(nblocks):
                if i == 0:
                    args = [(Value(self.ssa_name(), t), self.loc(0.2)) for t in f.inputs]
                else:
                    args = [(Value(self.ssa_name(), self.gen_type(2)), self.loc(0.2))
                            for _ in range(self.r.randint(0, 2))]
                blocks.append(Block(self.block_label() if i > 0 or not custom else None, args))
            reg.blocks = blocks
            entry_vals = []
            for i, b in enumerate(blocks):
                ctx = Ctx("func", entry_vals if i else [], 1, symtab=symtab, calls_ok=True,
                          func_results=f.results, ssacfg=True)
                ctx.short_ok = custom
                vals = self.fill_block(ctx, b, blocks, i, multi=nblocks > 1)
                if i == 0:
                    entry_vals = vals
            op.regions = [reg]
        else:
            op.regions = [Region()]
        if custom:
            op.custom = render_func
        else:
            props = ["function_type = %s" % func_type_text(f), "sym_name = %s" % self.str_lit_of(f.name)]
            if f.visibility:
                props.append('sym_visibility = "%s"' % f.visibility)
            if any(op.extra["arg_attrs"]):
                props.append("arg_attrs = [%s]" % ", ".join("{%s}" % a for a in op.extra["arg_attrs"]))
            if any(op.extra["res_attrs"]):
                props.append("res_attrs = [%s]" % ", ".join("{%s}" % a for a in op.extra["res_attrs"]))
            self.r.shuffle(props)
            if self.p(0.2):
                op.attrs = ", ".join(props) + (", " + op.attrs if op.attrs else "")
            else:
                op.props = ", ".join(props)
            if op.regions[0].blocks:
                op.regions[0].blocks[0].label = op.regions[0].blocks[0].label or self.block_label()
        return op

    def module_body(self, depth, visible, nested_ok=True):
        """Ops of a module body: unregistered ops, funcs, maybe a nested module."""
        symtab = self.plan_funcs(self.r.randint(0, 4))
        ctx = Ctx("module", visible, depth, symtab=symtab, calls_ok=True)
        block = Block(None, [])
        local = []
        items = []
        for f in symtab:
            items.append(("func", f))
        for _ in range(self.r.randint(0, 3)):
            items.append(("ops", None))
        if nested_ok and depth < 3 and self.p(0.15):
            items.append(("module", None))
        self.r.shuffle(items)
        for kind, f in items:
            if kind == "func":
                block.ops.append(self.func_op(f, symtab))
            elif kind == "module":
                block.ops.append(self.module_op(depth + 1, sym_required=False))
            else:
                sub = Block(None, [])
                ctx.visible = visible
                self.fill_block(ctx, sub, [sub], 0, multi=False)
                # keep module-level values visible to later module-level ops
                for op in sub.ops:
                    block.ops.append(op)
                    local.extend(op.results())
                visible = visible + [v for op in sub.ops for v in op.results()]
        return block

    def module_op(self, depth, sym_required=False):
        op = Op("builtin.module")
        op.registered = True
        block = self.module_body(depth, [])
        reg = Region()
        reg.blocks = [block]
        op.regions = [reg]
        name = self.unique_sym() if (sym_required or self.p(0.4)) else None
        op.extra["sym"] = name
        op.attrs = self.dict_body(2, self.r.randint(1, 3), registered=True, dialect_keys=True) if self.p(0.3) else None
        op.loc = self.loc(0.3)
        if self.use_custom():
            op.custom = render_module
        else:
            if name:
                op.props = "sym_name = %s" % self.str_lit_of(name)
                if self.p(0.2):
                    op.attrs = op.props + (", " + op.attrs if op.attrs else "")
                    op.props = None
            block.label = self.block_label() if (self.p(0.3) or not block.ops) else None
        return op

    def generate(self):
        self.gen_aliases()
        form = self.r.random()
        out = []
        out.extend(line + "\n" for line in self.alias_lines)
        if self.p(0.3):
            out.append("// " + self.comment_text() + "\n")
        if form < 0.45:
            top = self.module_op(0)
            out.append(render_op(self, top, 0))
        elif form < 0.9:
            block = self.module_body(0, [])
            for op in block.ops:
                out.append(render_op(self, op, 0))
                if self.messy and self.p(0.1):
                    out.append("\n// " + self.comment_text() + "\n\n")
        else:
            for _ in range(self.r.randint(2, 3)):
                out.append(render_op(self, self.module_op(0), 0))
        return "".join(out)


# --------------------------------------------------------------------------- rendering

def func_type_text(f):
    ins = ", ".join(t.spell for t in f.inputs)
    if len(f.results) == 1 and f.results[0].cls != "func":
        res = f.results[0].spell
    else:
        res = "(" + ", ".join(t.spell for t in f.results) + ")"
    return "(%s) -> %s" % (ins, res)


def type_spell(g, t):
    return g.maybe_alias(t).spell


def result_prefix(g, op):
    if not op.result_groups:
        return ""
    parts = []
    for name, tys in op.result_groups:
        if len(tys) == 1 and not g.p(0.1):
            parts.append(name)
        else:
            parts.append("%s:%d" % (name, len(tys)))
    return ("," + g.ws() + " ").join(parts) + g.sp() + "=" + g.sp()


def use_ref(g, v):
    return v.ref


def render_loc(g, op):
    return (g.sp() + op.loc) if op.loc else ""


def indent_text(g, n):
    if g.messy and g.p(0.15):
        return g.choice(["", "\t", " ", "        "])
    return "  " * n


def render_op(g, op, ind):
    pad = indent_text(g, ind)
    if op.custom is not None:
        return pad + op.custom(g, op, ind) + "\n"
    w = g.ws
    s = [pad, result_prefix(g, op), g.str_lit_of(op.name) if "\\" not in op.name else '"%s"' % op.name]
    s.append("(" + w() + ("," + w() + " ").join(use_ref(g, v) for v in op.operands) + w() + ")")
    if op.successors:
        s.append("[" + ", ".join("^" + b.label for b in op.successors) + "]")
    if op.props is not None:
        s.append(w() + " <{" + w() + op.props + w() + "}>")
    if op.regions:
        s.append(" (" + ", ".join(render_region(g, r, ind) for r in op.regions) + ")")
    if op.attrs is not None:
        s.append(" {" + op.attrs + "}")
    ins = ", ".join(type_spell(g, v.ty) for v in op.operands)
    rts = op.result_types()
    if len(rts) == 1 and rts[0].cls != "func" and g.p(0.85):
        res = type_spell(g, rts[0])
    else:
        res = "(" + ", ".join(type_spell(g, t) for t in rts) + ")"
    s.append(w() + " :" + w() + " (" + ins + ")" + w() + " ->" + w() + " " + res)
    s.append(render_loc(g, op))
    return "".join(s) + "\n"


def render_block_args(g, b):
    parts = []
    for v, loc in b.args:
        parts.append("%s:%s%s%s" % (v.ref, g.ws(), type_spell(g, v.ty), (" " + loc) if loc else ""))
    return "(" + ", ".join(parts) + ")"


def render_region(g, reg, ind, custom_entry=False):
    out = ["{\n"]
    for i, b in enumerate(reg.blocks):
        if b.label is not None and not (custom_entry and i == 0):
            out.append("  " * ind + "^" + b.label + (render_block_args(g, b) if b.args else "") + ":")
            if g.messy and g.p(0.2):
                out.append("  // " + g.comment_text())
            out.append("\n")
        for op in b.ops:
            out.append(render_op(g, op, ind + 1))
    out.append("  " * ind + "}")
    return "".join(out)


def render_arith(g, op, ind):
    name = op.name
    res = result_prefix(g, op)
    ops = ", ".join(v.ref for v in op.operands)
    attrs = (" {" + op.attrs + "}") if op.attrs else ""
    kind = name.split(".")[1]
    if kind == "cmpi":
        body = "%s %s, %s%s : %s" % (name, CMPI_PREDS[op.extra["pred"]], ops, attrs,
                                     type_spell(g, op.operands[0].ty))
    elif kind == "index_cast":
        src, dst = op.extra["types"]
        body = "%s %s%s : %s to %s" % (name, ops, attrs, type_spell(g, src), type_spell(g, dst))
    elif kind == "select":
        c, a = op.operands[0].ty, op.operands[1].ty
        if c.canon == "i1" and g.p(0.7):
            body = "%s %s%s : %s" % (name, ops, attrs, type_spell(g, a))
        else:
            body = "%s %s%s : %s, %s" % (name, ops, attrs, type_spell(g, c), type_spell(g, a))
    else:
        ovf = op.extra.get("ovf")
        ovf_text = (" overflow<%s>" % ovf) if ovf else ""
        body = "%s %s%s%s : %s" % (name, ops, ovf_text, attrs, type_spell(g, op.result_types()[0]))
    return res + body + render_loc(g, op)


def render_arith_constant(g, op, ind):
    attrs = ("{" + op.attrs + "} ") if op.attrs else ""
    return result_prefix(g, op) + "arith.constant " + attrs + op.extra["value"] + render_loc(g, op)


def render_call(g, op, ind):
    f = op.extra["fn"]
    name = "call" if op.extra.get("short") else "func.call"
    attrs = (" {" + op.attrs + "}") if op.attrs else ""
    ops = ", ".join(v.ref for v in op.operands)
    return "%s%s %s(%s)%s : %s%s" % (result_prefix(g, op), name, op.extra["callee"], ops, attrs,
                                     func_type_text(f), render_loc(g, op))


def render_return(g, op, ind):
    name = "return" if op.extra.get("short") else "func.return"
    if not op.operands:
        return name + render_loc(g, op)
    return "%s %s : %s%s" % (name, ", ".join(v.ref for v in op.operands),
                             ", ".join(type_spell(g, v.ty) for v in op.operands), render_loc(g, op))


def render_func(g, op, ind):
    f = op.extra["fn"]
    s = ["func.func" + g.sp()]
    if f.visibility:
        s.append(f.visibility + g.sp())
    s.append(g.sym_text(f.name))
    reg = op.regions[0]
    if f.is_decl:
        args = []
        for t, a in zip(f.inputs, op.extra["arg_attrs"]):
            args.append(type_spell(g, t) + ((" {" + a + "}") if a else ""))
    else:
        args = []
        entry = reg.blocks[0]
        for (v, loc), a in zip(entry.args, op.extra["arg_attrs"]):
            args.append("%s: %s%s%s" % (v.ref, type_spell(g, v.ty), (" {" + a + "}") if a else "",
                                        (" " + loc) if loc else ""))
    s.append("(" + ("," + g.ws() + " ").join(args) + ")")
    res = []
    for t, a in zip(f.results, op.extra["res_attrs"]):
        res.append(type_spell(g, t) + ((" {" + a + "}") if a else ""))
    if res:
        if len(res) == 1 and not op.extra["res_attrs"][0] and f.results[0].cls != "func" and g.p(0.7):
            s.append(" -> " + res[0])
        else:
            s.append(" -> (" + ", ".join(res) + ")")
    elif g.p(0.1):
        s.append(" -> ()")
    if op.attrs:
        s.append(" attributes {" + op.attrs + "}")
    if not f.is_decl:
        s.append(" " + render_region(g, reg, ind, custom_entry=True))
    s.append(render_loc(g, op))
    return "".join(s)


def render_module(g, op, ind):
    s = ["module"]
    if op.extra["sym"]:
        s.append(" " + g.sym_text(op.extra["sym"]))
    if op.attrs:
        s.append(" attributes {" + op.attrs + "}")
    s.append(" " + render_region(g, op.regions[0], ind, custom_entry=True))
    s.append(render_loc(g, op))
    return "".join(s)


# --------------------------------------------------------------------------- driver

def generate(seed, size=40, custom=None):
    return Gen(seed, size, custom).generate()


def check_one(seed, size, custom, mlir_opt, tmpdir):
    text = generate(seed, size, custom)
    path = os.path.join(tmpdir, "seed-%d.mlir" % seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    proc = subprocess.run([mlir_opt, "--allow-unregistered-dialect", "--mlir-print-op-generic",
                           path, "-o", "/dev/null"], capture_output=True, text=True, errors="replace")
    return seed, proc.returncode, proc.stderr, path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=40, help="approximate number of ops")
    ap.add_argument("--custom", action="store_true", help="allow custom syntax of registered ops")
    ap.add_argument("--generic", action="store_true", help="generic syntax only")
    ap.add_argument("--out-dir")
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--check-count", type=int)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--mlir-opt", default=os.environ.get("MLIR_OPT", "mlir-opt-19"))
    args = ap.parse_args()
    custom = True if args.custom else (False if args.generic else None)
    if args.check_count is not None:
        import tempfile
        tmpdir = tempfile.mkdtemp(prefix="mlirgen-check-")
        seeds = range(args.start, args.start + args.check_count)
        bad = []
        with ThreadPoolExecutor(max_workers=args.jobs) as ex:
            for seed, rc, err, path in ex.map(lambda s: check_one(s, args.size, custom, args.mlir_opt, tmpdir), seeds):
                if rc != 0:
                    bad.append(seed)
                    if len(bad) <= 10:
                        print("seed %d rejected (%s):\n%s" % (seed, path, "\n".join(err.splitlines()[:6])))
                else:
                    os.unlink(path)
        print("check: %d/%d seeds accepted by %s (%d rejected%s)" % (
            len(seeds) - len(bad), len(seeds), args.mlir_opt, len(bad),
            (": " + " ".join(map(str, bad[:50]))) if bad else ""))
        if not bad:
            os.rmdir(tmpdir)
        sys.exit(1 if bad else 0)
    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
        for seed in range(args.start, args.start + args.count):
            with open(os.path.join(args.out_dir, "seed-%d.mlir" % seed), "w", encoding="utf-8") as fh:
                fh.write(generate(seed, args.size, custom))
        return
    sys.stdout.buffer.write(generate(args.seed, args.size, custom).encode("utf-8"))


if __name__ == "__main__":
    main()
