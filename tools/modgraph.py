#!/usr/bin/env python3
"""modgraph: the module import graph of the workspace's crates and its strongly connected
components (import circles).

Usage:
    python3 tools/modgraph.py                 # every crate under crates/: SCCs of size > 1
    python3 tools/modgraph.py crates/ir       # one crate
    python3 tools/modgraph.py crates/ir --edges         # also every edge, per file
    python3 tools/modgraph.py crates/ir --why A B       # the paths in A that name B

Nodes are the source files of one crate target (the library, each binary). An edge A -> B
means some path written in A names an item that B defines:
  - `use` trees (`use crate::a::{b, c::d}`, `use super::x`, `use child::y`), and paths in code
    that start with `crate::`, `$crate::` (macro bodies), `super::`, `self::`, a child module's
    name or a name a `use` brought in.
  - A path is resolved to the file that *defines* the item: a name re-exported by `pub use`
    in a `mod.rs` or `lib.rs` (or imported by a plain `use` and reached through `super::`) is
    followed to its origin, so a facade module does not put its users in a circle with its
    children. A `pub use` is an edge of the re-exporting file only when that file also uses
    the name itself (a pure re-export is naming, not a dependency).
  - Importing a module (`use crate::printer;`) is no edge by itself; the paths that go through
    it (`printer::print_attr`) are.
  - `mod x;` declarations are not edges (a parent owning a child is not an import).
  - `#[cfg(test)]` code is its own node, `FILE#test` (and a `mod tests;` file is a node that
    nothing imports), so tests that use higher layers as fixtures make no circle.
  - Comments, doc comments (intra-doc links) and string literals are ignored.
Paths to other crates, `std` and local items are not edges. Python 3.11, no dependencies.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------
# Lexer: Rust source to a token list (comments and literal contents dropped).

ID_START = re.compile(r"[A-Za-z_]")
ID_CHARS = re.compile(r"[A-Za-z0-9_]*")


@dataclass
class Tok:
    kind: str  # "id", "p" (punctuation; "::" is one token), "str", "lit"
    text: str
    line: int


def lex(src: str) -> list[Tok]:
    toks: list[Tok] = []
    i, n, line = 0, len(src), 1

    def skip_string(j: int) -> int:
        # src[j] == '"'; returns the index after the closing quote.
        j += 1
        while j < n and src[j] != '"':
            j += 2 if src[j] == "\\" else 1
        return j + 1

    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += src.count("\n", i, j)
            i = j
        elif c == '"':
            j = skip_string(i)
            toks.append(Tok("str", src[i + 1 : j - 1], line))
            line += src.count("\n", i, j)
            i = j
        elif m := re.match(r'(?:b|c)?r(#*)"', src[i:i + 40]) if c in "bcr" else None:
            hashes = m.group(1)
            end = src.find('"' + hashes, i + m.end())
            j = n if end < 0 else end + 1 + len(hashes)
            toks.append(Tok("str", src[i + m.end() : max(end, i)], line))
            line += src.count("\n", i, j)
            i = j
        elif c == "b" and src.startswith('b"', i):
            j = skip_string(i + 1)
            line += src.count("\n", i, j)
            toks.append(Tok("lit", "", line))
            i = j
        elif c == "'" or (c == "b" and src.startswith("b'", i)):
            k = i + 1 if c == "'" else i + 2
            if k < n and src[k] == "\\":  # escaped char literal
                j = src.find("'", k + 2)
                i = j + 1
                toks.append(Tok("lit", "", line))
            elif k + 1 < n and src[k + 1] == "'":  # one-char literal
                i = k + 2
                toks.append(Tok("lit", "", line))
            else:  # a lifetime or label
                m2 = ID_CHARS.match(src, k)
                i = m2.end()
                toks.append(Tok("lit", "", line))
        elif c == "r" and src.startswith("r#", i) and i + 2 < n and ID_START.match(src[i + 2]):
            m2 = ID_CHARS.match(src, i + 2)
            toks.append(Tok("id", src[i + 2 : m2.end()], line))
            i = m2.end()
        elif ID_START.match(c):
            m2 = ID_CHARS.match(src, i)
            toks.append(Tok("id", src[i : m2.end()], line))
            i = m2.end()
        elif c.isdigit():
            m2 = re.compile(r"[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?").match(src, i)
            toks.append(Tok("lit", "", line))
            i = m2.end()
        elif c == "$" and i + 1 < n and ID_START.match(src[i + 1]):
            m2 = ID_CHARS.match(src, i + 1)
            toks.append(Tok("id", src[i : m2.end()], line))
            i = m2.end()
        elif src.startswith("::", i):
            toks.append(Tok("p", "::", line))
            i += 2
        else:
            toks.append(Tok("p", c, line))
            i += 1
    return toks


# ---------------------------------------------------------------------------------------------
# One crate target: modules, the names they define and import, and the paths each file writes.

Mod = tuple[str, ...]  # a module path from the crate root


@dataclass
class UseLeaf:
    module: Mod  # the module the `use` is written in
    segs: list[str]  # the path as written
    alias: str | None  # the name it binds (None for globs)
    glob: bool
    node: str  # the file (or FILE#test) it is written in
    line: int
    public: bool = False  # a `pub use` (or `pub(crate) use`...): a re-export


@dataclass
class Target:
    root: str  # crate-relative path of the root file
    files: dict[Mod, str] = field(default_factory=dict)  # module -> node owning its items
    defs: dict[Mod, set[str]] = field(default_factory=dict)
    imports: dict[Mod, dict[str, UseLeaf]] = field(default_factory=dict)
    globs: dict[Mod, list[UseLeaf]] = field(default_factory=dict)
    uses: list[UseLeaf] = field(default_factory=list)
    paths: list[tuple[Mod, list[str], str, int]] = field(default_factory=list)
    macros: dict[str, str] = field(default_factory=dict)  # #[macro_export] name -> node
    nodes: set[str] = field(default_factory=set)
    # Identifiers each node uses outside `use` statements (is a re-exported name also used?).
    idents: dict[str, set[str]] = field(default_factory=dict)


ITEM_KW = {"fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod"}


def parse_use_tree(toks: list[Tok], i: int, prefix: list[str], out: list) -> int:
    """Parses one use tree at toks[i]; appends (segs, alias, glob, line). Returns the index
    after it."""
    segs = list(prefix)
    if toks[i].text == "::":  # `use ::std::...`: an extern path
        i += 1
        segs.append("::")
    while True:
        t = toks[i]
        if t.text == "{":
            i += 1
            while toks[i].text != "}":
                i = parse_use_tree(toks, i, segs, out)
                if toks[i].text == ",":
                    i += 1
            return i + 1
        if t.text == "*":
            out.append((segs, None, True, t.line))
            return i + 1
        if t.kind != "id":
            return i + 1
        segs = segs + [t.text]
        i += 1
        if toks[i].text == "::":
            i += 1
            continue
        alias = t.text
        if toks[i].text == "as":
            alias = toks[i + 1].text
            i += 2
        if alias == "self":
            segs = segs[:-1]
            alias = segs[-1] if segs else None
        else:
            if t.text == "self":
                segs = segs[:-1]
        if alias and alias != "_":
            out.append((segs, alias, False, t.line))
        else:
            out.append((segs, None, False, t.line))
        return i


def child_dir(file_rel: str, is_mod_rs: bool) -> str:
    d = os.path.dirname(file_rel)
    if is_mod_rs:
        return d
    return os.path.join(d, os.path.splitext(os.path.basename(file_rel))[0])


def load_target(crate_dir: str, root_rel: str) -> Target:
    tgt = Target(root=root_rel)
    pending: list[tuple[str, Mod, bool, bool]] = [(root_rel, (), True, False)]
    seen: set[str] = set()
    while pending:
        rel, mod, is_mod_rs, is_test = pending.pop()
        if rel in seen:
            continue
        seen.add(rel)
        with open(os.path.join(crate_dir, rel), encoding="utf-8") as f:
            toks = lex(f.read())
        toks.append(Tok("p", ";", 0))
        toks.append(Tok("p", ";", 0))
        scan_file(tgt, toks, rel, mod, is_mod_rs, is_test, pending)
    return tgt


def scan_file(tgt, toks, rel, mod, is_mod_rs, is_test, pending):
    node = rel + ("#test" if is_test else "")
    tgt.nodes.add(node)
    tgt.files[mod] = node
    tgt.defs.setdefault(mod, set())
    # Scopes: (brace depth at which it opened, module path, node, dir for child files).
    scopes = [(0, mod, node, child_dir(rel, is_mod_rs))]
    depth = 0
    attrs: list[list[Tok]] = []
    test_region: tuple[int, bool] | None = None  # (depth, opened a brace yet)
    i = 0
    n = len(toks)
    prev_text = ""
    public = False  # the item being read is `pub`
    while i < n - 2:
        t = toks[i]
        cur_mod, cur_node, cur_dir = scopes[-1][1], scopes[-1][2], scopes[-1][3]
        if test_region is not None and not cur_node.endswith("#test"):
            cur_node = rel + "#test"
            tgt.nodes.add(cur_node)
        if t.text == "#" and toks[i + 1].text in ("[", "!"):
            inner = toks[i + 1].text == "!"
            j = i + (3 if inner else 2)
            level, body = 1, []
            while level:
                if toks[j].text == "[":
                    level += 1
                elif toks[j].text == "]":
                    level -= 1
                if level:
                    body.append(toks[j])
                j += 1
            if not inner:
                attrs.append(body)
            i, prev_text = j, "]"
            continue
        is_test_attr = any(
            [x.text for x in a][:4] == ["cfg", "(", "test", ")"] for a in attrs
        )
        path_attr = next(
            (a[2].text for a in attrs if len(a) >= 3 and a[0].text == "path" and a[2].kind == "str"),
            None,
        )
        macro_export = any(a and a[0].text == "macro_export" for a in attrs)
        if is_test_attr and test_region is None and t.text not in ("pub", "(", "crate", ")"):
            test_region = (depth, False)
            cur_node = rel + "#test"
            tgt.nodes.add(cur_node)
        if t.text in ("pub", "(", ")") or (t.text == "crate" and prev_text == "("):
            public = public or t.text == "pub"
            i, prev_text = i + 1, t.text
            continue
        is_pub, public = public, False
        if t.kind == "id" and t.text != "use":
            tgt.idents.setdefault(cur_node, set()).add(t.text)
        attrs = []
        if t.text == "{":
            depth += 1
            if test_region is not None and not test_region[1] and depth == test_region[0] + 1:
                test_region = (test_region[0], True)
        elif t.text == "}":
            depth -= 1
            while len(scopes) > 1 and depth < scopes[-1][0]:
                scopes.pop()
            if test_region is not None and test_region[1] and depth == test_region[0]:
                test_region = None
        elif t.text == ";" and test_region is not None and not test_region[1] and depth == test_region[0]:
            test_region = None
        elif t.kind == "id" and t.text == "mod" and toks[i + 1].kind == "id":
            name = toks[i + 1].text
            child = cur_mod + (name,)
            tgt.defs.setdefault(cur_mod, set()).add(name)
            if toks[i + 2].text == ";":
                if path_attr is not None:
                    file = os.path.normpath(os.path.join(os.path.dirname(rel), path_attr))
                    pending.append((file, child, True, is_test_attr or is_test))
                else:
                    base = os.path.join(cur_dir, name)
                    if os.path.exists(os.path.join(tgt_crate_dir[0], base + ".rs")):
                        pending.append((base + ".rs", child, False, is_test_attr or is_test))
                    else:
                        pending.append((os.path.join(base, "mod.rs"), child, True, is_test_attr or is_test))
                if test_region is not None and depth == test_region[0]:
                    test_region = None
                i += 3
                continue
            if toks[i + 2].text == "{":
                child_node = rel + "#test" if (test_region is not None or cur_node.endswith("#test")) else cur_node
                tgt.nodes.add(child_node)
                tgt.files[child] = child_node
                tgt.defs.setdefault(child, set())
                depth += 1
                if test_region is not None and not test_region[1] and depth == test_region[0] + 1:
                    test_region = (test_region[0], True)
                scopes.append((depth, child, child_node, os.path.join(cur_dir, name)))
                i += 3
                continue
        elif t.kind == "id" and t.text == "use" and prev_text not in ("::",):
            leaves: list = []
            j = parse_use_tree(toks, i + 1, [], leaves)
            for segs, alias, glob, line in leaves:
                leaf = UseLeaf(cur_mod, segs, alias, glob, cur_node, line, is_pub)
                tgt.uses.append(leaf)
                if glob:
                    tgt.globs.setdefault(cur_mod, []).append(leaf)
                elif alias:
                    tgt.imports.setdefault(cur_mod, {})[alias] = leaf
            if test_region is not None and not test_region[1] and depth == test_region[0]:
                test_region = None
            i, prev_text = j + 1, ";"
            continue
        elif t.kind == "id" and t.text == "macro_rules" and toks[i + 1].text == "!":
            if macro_export:
                tgt.macros[toks[i + 2].text] = cur_node
        elif t.kind == "id" and t.text in ITEM_KW and toks[i + 1].kind == "id" and depth == scopes[-1][0]:
            tgt.defs.setdefault(cur_mod, set()).add(toks[i + 1].text)
        elif t.kind == "id" and toks[i + 1].text == "::" and prev_text != "::" and t.text != "use":
            segs = [t.text]
            j = i + 1
            while toks[j].text == "::" and toks[j + 1].kind == "id":
                segs.append(toks[j + 1].text)
                j += 2
            tgt.paths.append((cur_mod, segs, cur_node, t.line))
            i, prev_text = j, segs[-1]
            continue
        prev_text = t.text
        i += 1


tgt_crate_dir = [""]  # the crate being loaded (module files are looked up under it)


# ---------------------------------------------------------------------------------------------
# Resolution of a written path to the file defining its item.


def absolute(tgt: Target, mod: Mod, segs: list[str], guard: int = 0) -> list[str] | None:
    """The path as seen from the crate root, or None for extern crates, std and local items."""
    if not segs or segs[0] == "::" or guard > 32:
        return None
    head, rest = segs[0], segs[1:]
    if head in ("crate", "$crate"):
        return rest
    if head == "super":
        m = list(mod)
        while segs and segs[0] == "super":
            if m:
                m.pop()
            segs = segs[1:]
        return m + segs
    if head == "self":
        return list(mod) + rest
    if mod + (head,) in tgt.files:
        return list(mod) + segs
    leaf = tgt.imports.get(mod, {}).get(head)
    if leaf is not None:
        base = absolute(tgt, leaf.module, leaf.segs, guard + 1)
        return None if base is None else base + rest
    return None


def owner(tgt: Target, path: list[str], guard: int = 0) -> str | None:
    """The node defining the item `path` names; None when `path` is a module itself."""
    k = len(path)
    while k and tuple(path[:k]) not in tgt.files:
        k -= 1
    mod, rest = tuple(path[:k]), path[k:]
    if not rest:
        # A module; but a function or type of the same name may be imported next to it
        # (`mod render; pub use render::render;`): names of the value and type namespaces win.
        parent, name = tuple(path[:-1]), path[-1] if path else None
        leaf = tgt.imports.get(parent, {}).get(name) if name else None
        if leaf is not None and guard < 32:
            base = absolute(tgt, leaf.module, leaf.segs, guard + 1)
            if base is not None and base != path:
                return owner(tgt, base, guard + 1)
        return None
    name = rest[0]
    if guard < 32 and name not in tgt.defs.get(mod, set()):
        leaf = tgt.imports.get(mod, {}).get(name)
        if leaf is not None:
            base = absolute(tgt, leaf.module, leaf.segs, guard + 1)
            if base is not None:
                return owner(tgt, base + rest[1:], guard + 1)
        if mod == () and name in tgt.macros:
            return tgt.macros[name]
        for g in tgt.globs.get(mod, []):
            base = absolute(tgt, g.module, g.segs, guard + 1)
            if base is None:
                continue
            gm = tuple(base)
            if gm in tgt.files and (
                name in tgt.defs.get(gm, set()) or name in tgt.imports.get(gm, {})
            ):
                return owner(tgt, base + rest, guard + 1)
    return tgt.files[mod]


def edges_of(tgt: Target) -> dict[str, dict[str, list[str]]]:
    """node -> target node -> the paths (with line numbers) that make the edge."""
    out: dict[str, dict[str, list[str]]] = {n: {} for n in tgt.nodes}

    def add(src: str, segs: list[str], mod: Mod, line: int, glob: bool):
        path = absolute(tgt, mod, segs)
        if path is None:
            return
        if glob:
            k = tuple(path)
            dst = tgt.files.get(k)
        else:
            dst = owner(tgt, path)
        if dst is None or dst == src:
            return
        out[src].setdefault(dst, []).append(f"{src.split('#')[0]}:{line}: {'::'.join(segs)}")

    for u in tgt.uses:
        if u.public and u.alias and u.alias not in tgt.idents.get(u.node, set()):
            continue  # a pure re-export: users resolve through it; it is no edge itself
        add(u.node, u.segs, u.module, u.line, u.glob)
    for mod, segs, node, line in tgt.paths:
        add(node, segs, mod, line, False)
    return out


def sccs(nodes: list[str], edges: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components in reverse topological order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(sorted(comp))
    return comps


def crate_targets(crate_dir: str) -> list[str]:
    roots = []
    for cand in ("src/lib.rs", "src/main.rs"):
        if os.path.exists(os.path.join(crate_dir, cand)):
            roots.append(cand)
    toml = os.path.join(crate_dir, "Cargo.toml")
    if os.path.exists(toml):
        with open(toml, encoding="utf-8") as f:
            for m in re.finditer(r'^path\s*=\s*"([^"]+)"', f.read(), re.M):
                if m.group(1).endswith(".rs") and m.group(1) not in roots:
                    roots.append(m.group(1))
    bindir = os.path.join(crate_dir, "src/bin")
    if os.path.isdir(bindir):
        roots += sorted(f"src/bin/{f}" for f in os.listdir(bindir) if f.endswith(".rs"))
    return roots


def analyze(crate_dir: str, root: str):
    tgt_crate_dir[0] = crate_dir
    tgt = load_target(crate_dir, root)
    edges = edges_of(tgt)
    comps = [c for c in sccs(sorted(tgt.nodes), edges) if len(c) > 1]
    comps.sort(key=lambda c: (-len(c), c))
    return tgt, edges, comps


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("crates", nargs="*", help="crate directories (default: crates/*)")
    ap.add_argument("--edges", action="store_true", help="print every edge")
    ap.add_argument("--why", nargs=2, metavar=("FROM", "TO"), help="the paths making an edge")
    args = ap.parse_args(argv)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    crates = args.crates or sorted(
        os.path.join(here, "crates", d)
        for d in os.listdir(os.path.join(here, "crates"))
        if os.path.exists(os.path.join(here, "crates", d, "Cargo.toml"))
    )
    for crate in crates:
        for root in crate_targets(crate):
            tgt, edges, comps = analyze(crate, root)
            name = os.path.basename(os.path.normpath(crate))
            nfiles = len([n for n in tgt.nodes if "#" not in n])
            sizes = [len(c) for c in comps]
            print(f"{name} ({root}): {nfiles} files, SCCs of size > 1: {sizes or 'none'}")
            for c in comps:
                print(f"  [{len(c)}] " + " ".join(x.removeprefix("src/") for x in c))
            if args.edges:
                for src in sorted(edges):
                    for dst in sorted(edges[src]):
                        print(f"    {src} -> {dst}")
            if args.why:
                a, b = (x if x.startswith("src/") else "src/" + x for x in args.why)
                for line in edges.get(a, {}).get(b, []):
                    print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
