#!/usr/bin/env bash
# Differential test on MLIR's own upstream test files (test/upstream, see its README.md):
# every chunk of every file is run through mlir-opt-19 and fuser-opt with the flags of the
# file's RUN lines, and the results are compared.
#
#   .ci/mlir-upstream.sh FUSER_OPT [FILE-PREFIX...]
#
# Per file and per distinct RUN line (its first `mlir-opt` stage only: later `| mlir-opt` and
# `| FileCheck` stages are dropped, and so are %s, -verify-diagnostics, -split-input-file and
# -o):
#   * the file is split at `// -----` lines when the RUN line has -split-input-file (mlir-opt's
#     --split-input-file semantics), otherwise it is one chunk;
#   * each chunk is written to its own file, named like the original, and both tools are run on
#     it from inside its directory, so diagnostics carry the same chunk-relative locations;
#   * a chunk is out of scope when it names a dialect mlir-opt-19 registers other than builtin,
#     func, arith and cf (ops, `!dialect.type`, `#dialect.attr`, `dialect.attr` keys other than
#     the test dialect's markers, the dialect keys of a `dialect_resources` section other than
#     builtin; names of unregistered dialects are in scope), when the RUN line uses a pass or flag outside
#     IN_SCOPE_FLAGS below, or when mlir-opt-19 crashes on it;
#   * an in-scope chunk is identical when stdout, stderr (tool names replaced by TOOL, the list
#     in "Registered dialects: ...;" notes elided) and the exit status (0 or not) all match;
#     otherwise it differs.
# Chunk ids are `PATH@RUN:CHUNK` (1-based, PATH relative to test/upstream).
#
# Output: per file `identical/in-scope`, the total, and the differing chunk ids (with the line
# where each chunk starts). Exit status: 1 when a chunk listed in
# test/upstream/expected-identical.txt is not identical any more (a regression), 2 on usage
# errors, else 0.
#
# Environment:
#   MLIR_OPT=mlir-opt-19        the reference tool
#   UPSTREAM_JOBS=N             parallel workers (default: number of CPUs)
#   UPSTREAM_CACHE=DIR|off      cache of mlir-opt outputs keyed by sha256 of (tool version, flags,
#                               file name, chunk bytes); default ~/.cache/fuser-upstream
#   UPSTREAM_SHOW=N             differing chunks shown with a diff (default 0)
#   UPSTREAM_LIST=0             do not list the differing chunk ids
#   UPSTREAM_UPDATE=1           rewrite expected-identical.txt with every identical chunk
#   UPSTREAM_SAVE=DIR           write each in-scope chunk and both results under DIR
#   UPSTREAM_REASONS=1          also list the out-of-scope chunks and why
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export UPSTREAM_ROOT=$root
exec python3 - "$@" <<'PY'
import difflib
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True
ROOT = os.environ["UPSTREAM_ROOT"]
CORPUS = os.path.join(ROOT, "test", "upstream")
ALLOWLIST = os.path.join(CORPUS, "expected-identical.txt")
OUR_DIALECTS = {"builtin", "func", "arith", "cf"}
# Flags (without leading dashes and `=value`) whose chunks are in scope: the driver and printing
# flags of mlir-opt that the corpus uses, and the passes of issue 16.
IN_SCOPE_FLAGS = {
    "allow-unregistered-dialect", "mlir-print-debuginfo", "mlir-pretty-debuginfo",
    "mlir-print-local-scope", "mlir-print-op-generic", "mlir-disable-threading",
    "mlir-print-elementsattrs-with-hex-if-larger", "mlir-elide-elementsattrs-if-larger",
    "mlir-elide-resource-strings-if-larger", "mlir-print-unique-ssa-ids",
    "mlir-print-value-users", "mlir-print-op-on-diagnostic", "mlir-print-skip-regions",
    "no-implicit-module", "mlir-print-assume-verified",
    "canonicalize", "cse", "symbol-dce", "pass-pipeline",
}
PIPELINE_WORDS = {"builtin.module", "func.func", "canonicalize", "cse", "symbol-dce"}
DROPPED = {"%s", "-verify-diagnostics", "--verify-diagnostics", "2>&1"}
SPLIT = {"-split-input-file", "--split-input-file"}
SEP = re.compile(r"^// -----.*$", re.M)
NORMALIZATION = "2"   # bump when run_tool's normalization of outputs changes


def usage(msg=None):
    if msg:
        print("mlir-upstream: " + msg, file=sys.stderr)
    print("usage: .ci/mlir-upstream.sh FUSER_OPT [FILE-PREFIX...]", file=sys.stderr)
    sys.exit(2)


def resolve_tool(name):
    if os.sep in name:
        path = os.path.abspath(name)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(name)


def run_lines(text):
    """The RUN commands of a file, continuation lines joined."""
    cmds, cur = [], None
    for line in text.splitlines():
        m = re.search(r"RUN:(.*)$", line)
        if not m:
            continue
        body = m.group(1).strip()
        cur = body if cur is None else cur + " " + body
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        cmds.append(cur)
        cur = None
    return cmds


def first_stage(cmd):
    """(args, split) of the command's first mlir-opt stage, or None when it has none."""
    lex = shlex.shlex(cmd, posix=True, punctuation_chars="|")
    lex.whitespace_split = True
    words = list(lex)
    if "|" in words:
        words = words[: words.index("|")]
    if words and words[0] == "not":
        words = words[1:]
    if not words or words[0] != "mlir-opt":
        return None
    args, split, i = [], False, 1
    while i < len(words):
        w = words[i]
        if w in SPLIT:
            split = True
        elif w == "-o":
            i += 1
        elif w in DROPPED or w.startswith("-o=") or w.startswith("--o="):
            pass
        else:
            args.append(w)
        i += 1
    if "%s" not in words:
        return None
    return args, split


def flag_in_scope(arg):
    name = arg.lstrip("-").split("=", 1)[0]
    if name not in IN_SCOPE_FLAGS:
        return False
    if name == "pass-pipeline":
        value = arg.split("=", 1)[1] if "=" in arg else ""
        words = set(re.findall(r"[A-Za-z_][\w.-]*(?=[({,)]|$)", re.sub(r"\{[^}]*\}", "", value)))
        return words <= PIPELINE_WORDS
    return True


def strip_comments_and_strings(text):
    """Text without `//` comments, with string contents blanked (quotes kept)."""
    out = []
    for line in text.splitlines():
        res, i, n = [], 0, len(line)
        while i < n:
            c = line[i]
            if c == '"':
                j = i + 1
                while j < n and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                res.append('""')
                i = j + 1
            elif line.startswith("//", i):
                break
            else:
                res.append(c)
                i += 1
        out.append("".join(res))
    return "\n".join(out)


def dialects_used(chunk):
    names = set(re.findall(r'"([A-Za-z_][\w$]*)\.[\w$.]+"\s*\(', chunk))
    code = strip_comments_and_strings(chunk)
    aliases = set(re.findall(r"^\s*[#!]([\w$.]+)\s*=", code, re.M))
    for line in code.splitlines():
        m = re.match(r"\s*(?:%[^=]*=\s*)?([A-Za-z_][\w$]*)\.[A-Za-z_][\w$.]*", line)
        if m:
            names.add(m.group(1))
    for m in re.finditer(r"[!#]([A-Za-z_][\w$]*)((?:\.[\w$.]*)?)(<?)", code):
        if m.group(2) or m.group(3):
            if (m.group(1) + m.group(2)) not in aliases:
                names.add(m.group(1))
    # Discardable attribute names (`{llvm.emit_c_interface}`): verified by their dialect when it
    # is registered. The test dialect rejects only `test.invalid_attr`; its other names are plain
    # markers (`{test.simple}`) and keep a chunk in scope.
    for m in re.finditer(r"[{,]\s*(([a-z_][\w$]*)\.[\w$.]+)\s*(?==|,|})", code):
        if m.group(2) != "test" or m.group(1) == "test.invalid_attr":
            names.add(m.group(2))
    # The dialects of a `{-# dialect_resources: { NAME: {...} } #-}` section: each dialect parses
    # its own entries (ml_program's and the test dialect's resource handlers), so a chunk about
    # another dialect's resources is that dialect's test.
    section = re.search(r"dialect_resources\s*:\s*\{(.*)", chunk, re.S)
    if section:
        names.update(re.findall(r"^\s*([A-Za-z_][\w$]*)\s*:\s*\{", section.group(1), re.M))
    return names


def split_chunks(text, split):
    """(first line, chunk text) pairs, like mlir-opt's --split-input-file."""
    if not split:
        return [(1, text)]
    chunks, start, line0 = [], 0, 1
    for m in SEP.finditer(text):
        chunks.append((line0, text[start:m.start()]))
        line0 = text.count("\n", 0, m.end()) + 2
        start = m.end() + 1
    chunks.append((line0, text[start:]))
    return chunks


def main():
    args = sys.argv[1:]
    if not args:
        usage()
    fuser = resolve_tool(args[0])
    if fuser is None:
        usage("'%s' is not an executable" % args[0])
    prefixes = args[1:]
    ref = resolve_tool(os.environ.get("MLIR_OPT", "mlir-opt-19"))
    if ref is None:
        usage("reference tool '%s' not found" % os.environ.get("MLIR_OPT", "mlir-opt-19"))
    jobs = int(os.environ.get("UPSTREAM_JOBS", os.cpu_count() or 2))
    show = int(os.environ.get("UPSTREAM_SHOW", "0"))
    cache = os.environ.get("UPSTREAM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "fuser-upstream")
    if cache != "off":
        try:
            os.makedirs(cache, exist_ok=True)
        except OSError:
            cache = "off"
    save = os.environ.get("UPSTREAM_SAVE")
    out = subprocess.run([ref, "--show-dialects"], capture_output=True, text=True).stdout
    registered = set(out.split(":", 1)[-1].replace("\n", ",").replace(" ", "").split(",")) - {""}
    foreign = registered - OUR_DIALECTS
    version = subprocess.run([ref, "--version"], capture_output=True).stdout
    vkey = hashlib.sha256(version).hexdigest()[:16]

    files = []
    for dirpath, _, names in os.walk(CORPUS):
        for n in names:
            if n.endswith(".mlir"):
                rel = os.path.relpath(os.path.join(dirpath, n), CORPUS)
                if not prefixes or any(rel.startswith(p) for p in prefixes):
                    files.append(rel)
    files.sort()

    cases = []   # (id, rel, first line, args, chunk bytes, reason or None)
    per_file = {}
    for rel in files:
        with open(os.path.join(CORPUS, rel), encoding="utf-8") as fh:
            text = fh.read()
        runs = []
        for cmd in run_lines(text):
            st = first_stage(cmd)
            if st and st not in runs:
                runs.append(st)
        per_file[rel] = [0, 0, 0]   # chunks, in scope, identical
        for r, (rargs, split) in enumerate(runs, 1):
            bad = [a for a in rargs if not flag_in_scope(a)]
            for c, (line0, chunk) in enumerate(split_chunks(text, split), 1):
                cid = "%s@%d:%d" % (rel, r, c)
                used = dialects_used(chunk) & foreign
                reason = None
                if bad:
                    reason = "flags " + " ".join(bad)
                elif used:
                    reason = "dialects " + ",".join(sorted(used))
                cases.append((cid, rel, line0, rargs, chunk.encode("utf-8"), reason))
                per_file[rel][0] += 1

    work = tempfile.mkdtemp(prefix="fuser-upstream.")

    def run_tool(tool, rargs, rel, data, tag):
        d = os.path.join(work, tag)
        os.makedirs(d, exist_ok=True)
        name = os.path.basename(rel)
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(data)
        try:
            p = subprocess.run([tool] + rargs + [name], cwd=d, capture_output=True, timeout=60)
            rc, so, se = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            rc, so, se = -999, b"", b"timeout\n"
        shutil.rmtree(d, ignore_errors=True)
        se = se.decode("utf-8", "replace")
        se = se.replace(os.path.basename(tool), "TOOL").replace(tool, "TOOL")
        # The list of registered dialects differs by design (mlir-opt-19 registers ~50).
        se = re.sub(r"Registered dialects: [^;\n]*;", "Registered dialects: <list>;", se)
        return {"rc": rc, "stdout": so.decode("utf-8", "replace"), "stderr": se}

    def reference(i, case):
        cid, rel, _, rargs, data, _ = case
        h = hashlib.sha256()
        # NORMALIZATION names the output normalization the cached results went through.
        h.update(("%s\0%s\0%s\0%s\0" % (NORMALIZATION, vkey, "\x01".join(rargs), os.path.basename(rel))).encode())
        h.update(data)
        path = os.path.join(cache, h.hexdigest()[:40]) if cache != "off" else None
        if path and os.path.exists(path):
            with open(path) as fh:
                return json.load(fh)
        res = run_tool(ref, rargs, rel, data, "ref%d" % i)
        if path:
            tmp = path + ".%d.tmp" % os.getpid()
            with open(tmp, "w") as fh:
                json.dump(res, fh)
            os.replace(tmp, path)
        return res

    def evaluate(i):
        case = cases[i]
        if case[5]:
            return None
        theirs = reference(i, case)
        if theirs["rc"] < 0 or "Stack dump" in theirs["stderr"] or "LLVM ERROR" in theirs["stderr"]:
            return ("out", "mlir-opt-19 crashes", theirs, None)
        ours = run_tool(fuser, case[3], case[1], case[4], "ours%d" % i)
        same = (ours["stdout"] == theirs["stdout"] and ours["stderr"] == theirs["stderr"]
                and (ours["rc"] == 0) == (theirs["rc"] == 0))
        return ("identical" if same else "differ", None, theirs, ours)

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(evaluate, range(len(cases))))
    shutil.rmtree(work, ignore_errors=True)

    identical, differ = [], []
    for case, res in zip(cases, results):
        if res is None or res[0] == "out":
            continue
        per_file[case[1]][1] += 1
        if res[0] == "identical":
            per_file[case[1]][2] += 1
            identical.append(case[0])
        else:
            differ.append((case, res))
        if save:
            base = os.path.join(save, case[0].replace("/", "_").replace("@", "_").replace(":", "_"))
            os.makedirs(base, exist_ok=True)
            with open(os.path.join(base, os.path.basename(case[1])), "wb") as fh:
                fh.write(case[4])
            for tag, r in (("mlir-opt", res[2]), ("fuser-opt", res[3])):
                with open(os.path.join(base, tag + ".out"), "w") as fh:
                    fh.write(r["stdout"])
                with open(os.path.join(base, tag + ".err"), "w") as fh:
                    fh.write(r["stderr"] + "exit: %d\n" % r["rc"])

    print("mlir-upstream: identical/in-scope per file (files with in-scope chunks)")
    tot = [0, 0, 0]
    for rel in files:
        n, s, ok = per_file[rel]
        tot = [tot[0] + n, tot[1] + s, tot[2] + ok]
        if s:
            print("  %-58s %4d/%-4d (%d chunks)" % (rel, ok, s, n))
    print("mlir-upstream: %d/%d in-scope chunks identical (%d chunks in %d files, %d out of scope)"
          % (tot[2], tot[1], tot[0], len(files), tot[0] - tot[1]))

    if os.environ.get("UPSTREAM_REASONS") == "1":
        print("out-of-scope chunks:")
        for case, res in zip(cases, results):
            if res is None or res[0] == "out":
                print("  %s (line %d): %s" % (case[0], case[2], case[5] or res[1]))
    if os.environ.get("UPSTREAM_LIST", "1") != "0" and differ:
        print("differing chunks:")
        for case, _ in differ:
            print("  %s (line %d)" % (case[0], case[2]))
    for case, res in differ[:show]:
        theirs, ours = res[2], res[3]
        print("--- %s: mlir-opt-19 exit %d, fuser-opt exit %d" % (case[0], theirs["rc"], ours["rc"]))
        a = (theirs["stdout"] + theirs["stderr"]).splitlines()
        b = (ours["stdout"] + ours["stderr"]).splitlines()
        for line in list(difflib.unified_diff(a, b, "mlir-opt-19", "fuser-opt", lineterm=""))[:30]:
            print("    " + line)

    if os.environ.get("UPSTREAM_UPDATE") == "1":
        keep = []
        if prefixes and os.path.exists(ALLOWLIST):
            with open(ALLOWLIST) as fh:
                keep = [l.strip() for l in fh if l.strip() and not l.startswith("#")
                        and not any(l.startswith(p) for p in prefixes)]
        with open(ALLOWLIST, "w") as fh:
            fh.write("# Chunks of test/upstream known to give mlir-opt-19's exact result; written by\n"
                     "# UPSTREAM_UPDATE=1 .ci/mlir-upstream.sh FUSER_OPT. A chunk listed here that\n"
                     "# differs fails CI.\n")
            for cid in sorted(set(keep + identical)):
                fh.write(cid + "\n")
        print("mlir-upstream: wrote %s" % os.path.relpath(ALLOWLIST, ROOT))
        return 0

    expected = []
    if os.path.exists(ALLOWLIST):
        with open(ALLOWLIST) as fh:
            expected = [l.strip() for l in fh if l.strip() and not l.startswith("#")]
    got = set(identical)
    scanned = {c[0] for c in cases}
    regressed = [cid for cid in expected if cid in scanned and cid not in got]
    if regressed:
        print("mlir-upstream: REGRESSION: %d chunks of expected-identical.txt differ now:" % len(regressed))
        for cid in regressed:
            print("  " + cid)
        return 1
    print("mlir-upstream: no regression (%d chunks expected identical)" % len(expected))
    return 0


sys.exit(main())
PY
