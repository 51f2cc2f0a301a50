#!/usr/bin/env bash
# Differential test: fuser-opt vs. mlir-opt-19 on randomly generated MLIR.
#
#   .ci/differential.sh FUSER_OPT [COUNT=300] [START_SEED=0]
#
# For each seed S in START_SEED..START_SEED+COUNT-1, tools/mlirgen/gen.py
# produces seed-S.mlir (a valid module, see tools/mlirgen/README.md). fuser-opt
# is run on every file from inside its directory with the bare file name (the
# name appears in locations), once per mode below; its stdout must equal
# mlir-opt-19's byte for byte and it must exit 0.
#
# Modes (flags added to --allow-unregistered-dialect):
#   generic      --mlir-print-op-generic
#   custom       (none: the default custom form)
#   debuginfo    --mlir-print-op-generic --mlir-print-debuginfo
#   local        --mlir-print-debuginfo --mlir-print-local-scope
# and, only when named in DIFF_MODES (printing flags, not run by default):
#   unique       --mlir-print-unique-ssa-ids
#   unique-local --mlir-print-unique-ssa-ids --mlir-print-local-scope
#   users        --mlir-print-value-users
#   users-generic --mlir-print-value-users --mlir-print-op-generic
#   resources    --mlir-elide-resource-strings-if-larger=20
#   verified     --mlir-print-assume-verified --mlir-print-op-on-diagnostic=false
#
# Speed: mlir-opt-19 costs ~40 ms of CPU per start, so the reference outputs are
# computed with one `--split-input-file` run per mode and batch (chunk-relative
# locations "within split at F:N offset " are mapped back to "seed-S.mlir",
# which gives exactly the per-file output; DIFF_REF_BATCH=0 runs it per file),
# and cached by content hash.
#
# Environment:
#   DIFF_MODES="generic custom"  only these modes (default: all four)
#   GEN_FLAGS="--size 80"        extra flags for gen.py (--size N, --custom, --generic)
#   MLIR_OPT=mlir-opt-19         the reference tool
#   DIFF_JOBS=N                  parallel workers (default: number of CPUs)
#   DIFF_SHOW=N                  mismatches shown in detail (default 5)
#   DIFF_DIFF_LINES=N            diff lines shown per mismatch (default 16)
#   DIFF_TIMEOUT=S               per-run timeout for fuser-opt (default 20)
#   DIFF_REF_BATCH=0             run the reference tool once per file and mode
#   DIFF_CACHE=DIR|off           cache of reference outputs, keyed by sha256 of
#                                (tool version, mode, file name, file bytes);
#                                default ${XDG_CACHE_HOME:-~/.cache}/fuser-differential
#   DIFF_KEEP=1                  keep the work directory even when all match
#   TMPDIR                       where the work directory is created
# Output: `differential: N files x M modes, K mismatches`, then the failing
# seeds and, for the first mismatches, seed, mode, a diff and where the input
# and both outputs were saved (under the work directory in $TMPDIR).
# Exit status: 0 when everything matches, 1 on any mismatch, 2 on usage errors.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export DIFF_ROOT=$root
exec python3 - "$@" <<'PY'
import difflib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.environ["DIFF_ROOT"]
sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tools", "mlirgen"))
import gen  # noqa: E402

MODES = {
    "generic": ["--mlir-print-op-generic"],
    "custom": [],
    "debuginfo": ["--mlir-print-op-generic", "--mlir-print-debuginfo"],
    "local": ["--mlir-print-debuginfo", "--mlir-print-local-scope"],
    "unique": ["--mlir-print-unique-ssa-ids"],
    "unique-local": ["--mlir-print-unique-ssa-ids", "--mlir-print-local-scope"],
    "users": ["--mlir-print-value-users"],
    "users-generic": ["--mlir-print-value-users", "--mlir-print-op-generic"],
    "resources": ["--mlir-elide-resource-strings-if-larger=20"],
    "verified": ["--mlir-print-assume-verified", "--mlir-print-op-on-diagnostic=false"],
}
BASE = ["--allow-unregistered-dialect"]
SEP = "// -----\n"


def usage(msg=None):
    if msg:
        print("differential: " + msg, file=sys.stderr)
    print("usage: .ci/differential.sh FUSER_OPT [COUNT=300] [START_SEED=0]", file=sys.stderr)
    sys.exit(2)


def resolve_tool(name):
    if os.sep in name:
        path = os.path.abspath(name)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(name)


def prune_cache(cache, limit=40000):
    """Keeps the cache bounded: drops the older half when it exceeds `limit` files."""
    try:
        entries = os.listdir(cache)
        if len(entries) <= limit:
            return
        paths = [os.path.join(cache, e) for e in entries]
        paths.sort(key=lambda q: os.stat(q).st_mtime)
        for q in paths[: len(paths) // 2]:
            os.unlink(q)
    except OSError:
        pass


def parse_gen_flags(text):
    size, custom = 40, None
    words = text.split()
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--size" and i + 1 < len(words):
            size = int(words[i + 1])
            i += 1
        elif w.startswith("--size="):
            size = int(w.split("=", 1)[1])
        elif w == "--custom":
            custom = True
        elif w == "--generic":
            custom = False
        else:
            usage("unsupported GEN_FLAGS word '%s'" % w)
        i += 1
    return size, custom


def main():
    args = sys.argv[1:]
    if not 1 <= len(args) <= 3:
        usage()
    fuser = resolve_tool(args[0])
    if fuser is None:
        usage("'%s' is not an executable" % args[0])
    try:
        count = int(args[1]) if len(args) > 1 else 300
        start = int(args[2]) if len(args) > 2 else 0
    except ValueError:
        usage()
    ref = resolve_tool(os.environ.get("MLIR_OPT", "mlir-opt-19"))
    if ref is None:
        usage("reference tool '%s' not found" % os.environ.get("MLIR_OPT", "mlir-opt-19"))
    modes = os.environ.get("DIFF_MODES", "generic custom debuginfo local").split()
    for m in modes:
        if m not in MODES:
            usage("unknown mode '%s' (known: %s)" % (m, " ".join(MODES)))
    jobs = int(os.environ.get("DIFF_JOBS", os.cpu_count() or 2))
    show = int(os.environ.get("DIFF_SHOW", "5"))
    difflines = int(os.environ.get("DIFF_DIFF_LINES", "16"))
    timeout = float(os.environ.get("DIFF_TIMEOUT", "20"))
    gen_flags = os.environ.get("GEN_FLAGS", "")
    size, custom = parse_gen_flags(gen_flags)
    cache = os.environ.get("DIFF_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "fuser-differential")
    if cache != "off":
        try:
            os.makedirs(cache, exist_ok=True)
        except OSError:
            cache = "off"
    t0 = time.time()
    work = tempfile.mkdtemp(prefix="fuser-differential.", dir=os.environ.get("TMPDIR") or None)
    indir = os.path.join(work, "in")
    os.makedirs(indir)

    # 1. Inputs.
    seeds = list(range(start, start + count))
    names = {s: "seed-%d.mlir" % s for s in seeds}
    texts = {}
    for s in seeds:
        texts[s] = gen.generate(s, size, custom).encode("utf-8")
        with open(os.path.join(indir, names[s]), "wb") as fh:
            fh.write(texts[s])

    t_gen = time.time()

    # 2. Reference outputs (cache, then batched --split-input-file runs).
    version = subprocess.run([ref, "--version"], capture_output=True).stdout
    vkey = hashlib.sha256(version + ref.encode()).hexdigest()[:16]

    def key(mode, s):
        h = hashlib.sha256()
        h.update(("%s\0%s\0%s\0" % (vkey, mode, names[s])).encode())
        h.update(texts[s])
        return h.hexdigest()[:40]

    expected = {}       # (seed, mode) -> bytes
    ref_errors = {}     # (seed, mode) -> stderr text
    missing = {m: [] for m in modes}
    for m in modes:
        for s in seeds:
            path = os.path.join(cache, key(m, s)) if cache != "off" else None
            if path and os.path.exists(path):
                with open(path, "rb") as fh:
                    expected[(s, m)] = fh.read()
            else:
                missing[m].append(s)

    def ref_single(m, s):
        p = subprocess.run([ref] + BASE + MODES[m] + [names[s]], cwd=indir, capture_output=True)
        if p.returncode != 0:
            ref_errors[(s, m)] = p.stderr.decode("utf-8", "replace")
            return
        expected[(s, m)] = p.stdout

    def ref_batch(m, batch, idx):
        if not batch:
            return
        bname = "batch-%s-%d.mlir" % (m, idx)
        if os.environ.get("DIFF_REF_BATCH", "1") != "0" and not any(SEP.encode() in texts[s] for s in batch):
            with open(os.path.join(indir, bname), "wb") as fh:
                fh.write(SEP.encode().join(texts[s] for s in batch))
            p = subprocess.run([ref] + BASE + MODES[m] + ["--split-input-file", bname],
                               cwd=indir, capture_output=True)
            os.unlink(os.path.join(indir, bname))
            chunks = p.stdout.split(b"\n" + SEP.encode())
            if p.returncode == 0 and len(chunks) == len(batch):
                # Every chunk after the first starts with the separator's
                # newline, so its line numbers are one too high.
                pat = re.compile(rb'"within split at ' + re.escape(bname.encode()) +
                                 rb':\d+ offset ":(\d+):(\d+)')
                for i, s in enumerate(batch):
                    out = chunks[i] + (b"\n" if i + 1 < len(batch) else b"")
                    shift = 1 if i > 0 else 0
                    fname = b'"' + names[s].encode() + b'":'

                    def fix(mo, shift=shift, fname=fname):
                        line = int(mo.group(1))
                        line = line - shift if line > 0 else line
                        return fname + str(line).encode() + b":" + mo.group(2)
                    expected[(s, m)] = pat.sub(fix, out)
                return
        for s in batch:
            ref_single(m, s)

    tasks = []
    for m in modes:
        miss = missing[m]
        nb = max(1, min(jobs, len(miss)))
        for i in range(nb):
            tasks.append((m, miss[i::nb], i))
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        list(ex.map(lambda t: ref_batch(*t), tasks))
    if cache != "off":
        prune_cache(cache)
        for m in modes:
            for s in missing[m]:
                if (s, m) in expected:
                    path = os.path.join(cache, key(m, s))
                    tmp = "%s.%d" % (path, os.getpid())
                    with open(tmp, "wb") as fh:
                        fh.write(expected[(s, m)])
                    os.replace(tmp, path)
    t_ref = time.time()

    # 3. fuser-opt, once per file and mode.
    results = {}    # (seed, mode) -> (kind, stdout, stderr)

    def run_fuser(sm):
        s, m = sm
        if (s, m) not in expected:
            results[sm] = ("reference-rejected", b"", ref_errors.get(sm, "").encode())
            return
        try:
            p = subprocess.run([fuser] + BASE + MODES[m] + [names[s]], cwd=indir,
                               capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            results[sm] = ("timeout after %gs" % timeout, b"", b"")
            return
        if p.returncode != 0:
            results[sm] = ("fuser-opt exit status %d" % p.returncode, p.stdout, p.stderr)
        elif p.stdout != expected[sm]:
            results[sm] = ("output differs", p.stdout, p.stderr)

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        list(ex.map(run_fuser, [(s, m) for s in seeds for m in modes]))
    elapsed = time.time() - t0

    # 4. Report.
    bad = sorted(results, key=lambda sm: (sm[0], modes.index(sm[1])))
    print("differential: %d files x %d modes, %d mismatches" % (len(seeds), len(modes), len(bad)))
    print("  (%.1fs: generate %.1fs, reference %.1fs [%d cached], fuser-opt %.1fs; seeds %d..%d; modes: %s)"
          % (elapsed, t_gen - t0, t_ref - t_gen, len(seeds) * len(modes) - sum(map(len, missing.values())),
             elapsed - (t_ref - t0), start, start + count - 1, " ".join(modes)))
    if not bad:
        if os.environ.get("DIFF_KEEP"):
            print("work directory kept: " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
        return 0
    for m in modes:
        n = sum(1 for sm in bad if sm[1] == m)
        if n:
            print("  %-9s %d mismatches" % (m + ":", n))
    kinds = {}
    for sm in bad:
        k = results[sm][0]
        kinds[k] = kinds.get(k, 0) + 1
    print("  kinds: " + ", ".join("%s: %d" % kv for kv in sorted(kinds.items())))
    errs = {}
    for sm in bad:
        if results[sm][0].startswith("fuser-opt exit"):
            lines = results[sm][2].decode("utf-8", "replace").splitlines()
            first = re.sub(r"^\S*seed-\d+\.mlir:\d+:\d+: ", "", lines[0]) if lines else "(no stderr)"
            errs[first[:160]] = errs.get(first[:160], 0) + 1
    if errs:
        print("  most common fuser-opt errors:")
        for msg, n in sorted(errs.items(), key=lambda kv: -kv[1])[:8]:
            print("    %5d  %s" % (n, msg))
    rej = [sm for sm in bad if results[sm][0] == "reference-rejected"]
    if rej:
        print("  WARNING: %d runs rejected by the reference tool itself (a generator bug)" % len(rej))
    failing = sorted({sm[0] for sm in bad})
    print("  failing seeds (%d): %s%s" % (len(failing), " ".join(map(str, failing[:40])),
                                         " ..." if len(failing) > 40 else ""))
    faildir = os.path.join(work, "fail")
    os.makedirs(faildir, exist_ok=True)
    for s, m in bad[:show]:
        kind, out, err = results[(s, m)]
        d = os.path.join(faildir, "seed-%d" % s)
        os.makedirs(d, exist_ok=True)
        shutil.copy(os.path.join(indir, names[s]), d)
        exp = expected.get((s, m), b"")
        for suffix, data in ((".expected", exp), (".actual", out), (".actual.err", err)):
            with open(os.path.join(d, m + suffix), "wb") as fh:
                fh.write(data)
        print()
        print("=== seed %d, mode %s: %s   (saved: %s)" % (s, m, kind, d))
        print("    reproduce: python3 tools/mlirgen/gen.py --seed %d%s > seed-%d.mlir && "
              "fuser-opt %s seed-%d.mlir" % (s, (" " + gen_flags) if gen_flags else "", s,
                                             " ".join(BASE + MODES[m]), s))
        if kind == "output differs":
            diff = difflib.unified_diff(exp.decode("utf-8", "replace").splitlines(),
                                        out.decode("utf-8", "replace").splitlines(),
                                        "mlir-opt-19", "fuser-opt", n=0, lineterm="")
            lines = list(diff)
            for line in lines[:difflines]:
                print("    " + line[:300])
            if len(lines) > difflines:
                print("    ... (%d more diff lines)" % (len(lines) - difflines))
        else:
            for line in err.decode("utf-8", "replace").splitlines()[:6]:
                print("    | " + line[:300])
    print()
    print("work directory (all inputs; saved mismatches under fail/): " + work)
    return 1


signal.signal(signal.SIGPIPE, signal.SIG_DFL)
sys.exit(main())
PY
