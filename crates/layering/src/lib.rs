//! The module layering of a crate, checked on its source tree (dev-only; every crate of the
//! workspace has a `tests/layering.rs` that calls [`check`]).
//!
//! A crate declares its [`Layers`]: every file of `src/` in one layer, lowest first. The checks:
//! every file has exactly one layer; a file imports only files of its own layer or below; no
//! import circle (strongly connected component of files) exists but the declared known ones,
//! which may shrink, never grow; and every `[dependencies]` entry of the crate's `Cargo.toml` is
//! named in its code (an unused dependency is only build time).
//!
//! The graph is the one `tools/modgraph.py` prints (same rules, reimplemented so that `cargo
//! test` needs nothing but cargo): nodes are files; an edge A -> B means a path written in A
//! (`use` trees; `crate::`, `$crate::`, `super::`, `self::`, child-module and imported-module
//! paths in code) names an item that B defines. Re-exports (`pub use`) are followed to the
//! defining file, so a facade puts no one in a circle, and are no edge of the re-exporting file
//! unless it uses the name itself; importing a module is no edge by itself; `mod x;` is no edge;
//! `#[cfg(test)]` items are skipped (tests may use any layer as fixtures); comments and
//! literals are ignored. Inherent methods defined in another file (`impl Printer` in
//! `printer/types.rs`) are called without a path and so make no edge: such files are placed
//! above the type's file by hand.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The files of `src/` and the import edges between them: file -> imported file -> the paths
/// (`file:line: path`) making the edge.
pub type Graph = (BTreeSet<String>, BTreeMap<String, BTreeMap<String, Vec<String>>>);

/// A crate's declared layering.
pub struct Layers<'a> {
    /// The crate's name, for messages.
    pub name: &'a str,
    /// `(layer name, files)`, lowest first; files are paths relative to `src/`.
    pub layers: &'a [(&'a str, &'a [&'a str])],
    /// Import circles that remain; a circle found must be a subset of one of these.
    pub known_circles: &'a [&'a [&'a str]],
}

/// The graph of the crate whose `src/` is `src`: the union of the module trees of every
/// target root (`lib.rs`, `main.rs`, `bin/*.rs`, and the `path`s of `[lib]`/`[[bin]]` in the
/// `Cargo.toml` beside `src/`).
pub fn graph(src: &Path) -> Graph {
    let (mut files, mut edges) = (BTreeSet::new(), BTreeMap::new());
    for root in roots(src) {
        let krate = load(src, &root);
        files.extend(krate.files.values().cloned());
        for (from, to) in krate.edges() {
            let e: &mut BTreeMap<String, Vec<String>> = edges.entry(from).or_default();
            for (t, why) in to {
                e.entry(t).or_default().extend(why);
            }
        }
    }
    (files, edges)
}

/// The root files of the crate's targets, relative to `src/`.
fn roots(src: &Path) -> Vec<String> {
    let mut out: Vec<String> =
        ["lib.rs", "main.rs"].iter().filter(|f| src.join(f).exists()).map(|f| f.to_string()).collect();
    for e in std::fs::read_dir(src.join("bin")).into_iter().flatten().flatten() {
        if e.path().extension().is_some_and(|x| x == "rs") {
            out.push(format!("bin/{}", e.file_name().to_string_lossy()));
        }
    }
    let manifest = src.parent().map(|d| d.join("Cargo.toml"));
    for line in manifest.and_then(|m| std::fs::read_to_string(m).ok()).unwrap_or_default().lines() {
        let Some(value) = line.trim().strip_prefix("path") else { continue };
        let value = value.trim_start().trim_start_matches('=').trim().trim_matches('"');
        if let Some(rel) = value.strip_prefix("src/")
            && !out.iter().any(|r| r == rel)
        {
            out.push(rel.to_string());
        }
    }
    out
}

/// Runs every check on the crate at `manifest_dir` (its `CARGO_MANIFEST_DIR`); the error lists
/// every violation found.
pub fn check(manifest_dir: &str, spec: &Layers<'_>) -> Result<Graph, String> {
    let dir = Path::new(manifest_dir);
    let g = graph(&dir.join("src"));
    let mut errors = Vec::new();
    errors.extend(every_file_has_one_layer(&g, spec));
    errors.extend(imports_go_down(&g, spec));
    errors.extend(no_new_circle(&g, spec));
    errors.extend(dependencies_are_used(dir));
    if errors.is_empty() { Ok(g) } else { Err(format!("{}: layering violations:\n{}", spec.name, errors.join("\n"))) }
}

fn every_file_has_one_layer((files, _): &Graph, spec: &Layers<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut listed: BTreeMap<&str, usize> = BTreeMap::new();
    for (rank, (_, layer)) in spec.layers.iter().enumerate() {
        for f in *layer {
            if listed.insert(f, rank).is_some() {
                out.push(format!("{f} is listed in two layers"));
            }
        }
    }
    let unlisted: Vec<&String> = files.iter().filter(|f| !listed.contains_key(f.as_str())).collect();
    let missing: Vec<&&str> = listed.keys().filter(|f| !files.contains(**f)).collect();
    if !unlisted.is_empty() {
        out.push(format!("files without a layer (add them to the crate's tests/layering.rs): {unlisted:?}"));
    }
    if !missing.is_empty() {
        out.push(format!("the layers list files that are not modules of the crate: {missing:?}"));
    }
    out
}

fn imports_go_down((_, edges): &Graph, spec: &Layers<'_>) -> Vec<String> {
    let rank: HashMap<&str, (usize, &str)> = spec
        .layers
        .iter()
        .enumerate()
        .flat_map(|(r, (name, files))| files.iter().map(move |f| (*f, (r, *name))))
        .collect();
    let mut out = Vec::new();
    for (from, targets) in edges {
        let Some(&(rf, lf)) = rank.get(from.as_str()) else { continue };
        for (to, why) in targets {
            let Some(&(rt, lt)) = rank.get(to.as_str()) else { continue };
            if rt > rf {
                out.push(format!("{from} ({lf}) imports {to} ({lt}), a higher layer:\n    {}", why.join("\n    ")));
            }
        }
    }
    out
}

fn no_new_circle((files, edges): &Graph, spec: &Layers<'_>) -> Vec<String> {
    let found = circles(files, edges);
    let unknown: Vec<&Vec<String>> = found
        .iter()
        .filter(|c| !spec.known_circles.iter().any(|k| c.iter().all(|f| k.contains(&f.as_str()))))
        .collect();
    if unknown.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in unknown {
        let mut why = Vec::new();
        for a in c {
            for (b, paths) in edges.get(a).into_iter().flatten() {
                if c.contains(b) {
                    why.push(format!("    {a} -> {b}: {}", paths.first().map_or("", String::as_str)));
                }
            }
        }
        out.push(format!("new import circle (files that import each other): {c:?}\n{}", why.join("\n")));
    }
    out
}

/// Every `[dependencies]` entry of `Cargo.toml` is named in `src/` (as `name::` or `use name`,
/// `-` read as `_`; an entry with `package = "..."` is named by its key).
fn dependencies_are_used(dir: &Path) -> Vec<String> {
    let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else { return Vec::new() };
    let mut deps = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_deps = t == "[dependencies]";
            continue;
        }
        if in_deps && let Some((key, _)) = t.split_once('=') {
            let key = key.trim();
            let name = key.split('.').next().unwrap_or(key).trim();
            if !name.is_empty() && !name.starts_with('#') {
                deps.push(name.replace('-', "_"));
            }
        }
    }
    let mut text = String::new();
    let mut stack = vec![dir.join("src")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                text.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
                text.push('\n');
            }
        }
    }
    // A dependency is named as `dep::...` or in `use dep` / `extern crate dep`.
    let toks = lex(&text);
    let named: BTreeSet<&str> = toks
        .windows(2)
        .filter_map(|w| match (&w[0].0, &w[1].0) {
            (Tok::Id(a), t) if t.is("::") => Some(a.as_str()),
            (Tok::Id(u), Tok::Id(a)) if u == "use" || u == "crate" => Some(a.as_str()),
            _ => None,
        })
        .collect();
    deps.into_iter()
        .filter(|d| !named.contains(d.as_str()))
        .map(|d| format!("dependency `{d}` of Cargo.toml is not used by src/ (remove it)"))
        .collect()
}

// ----- lexing ---------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Id(String),
    Punct(&'static str),
    Other(char),
    Str(String),
    Lit,
}

impl Tok {
    fn is(&self, p: &str) -> bool {
        match self {
            Tok::Punct(s) => *s == p,
            Tok::Other(c) => p.len() == c.len_utf8() && p.starts_with(*c),
            Tok::Id(s) => s == p,
            _ => false,
        }
    }
    fn id(&self) -> Option<&str> {
        match self {
            Tok::Id(s) => Some(s),
            _ => None,
        }
    }
}

/// Tokens with line numbers; comments dropped, literals reduced to a marker (strings keep
/// their text for `#[path]`).
fn lex(src: &str) -> Vec<(Tok, u32)> {
    let b = src.as_bytes();
    let (mut i, mut line, mut out) = (0usize, 1u32, Vec::new());
    let ident = |j: usize| {
        let mut k = j;
        while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
            k += 1;
        }
        k
    };
    let quoted_end = |j: usize| {
        // b[j] == '"'; the index after the closing quote.
        let mut k = j + 1;
        while k < b.len() && b[k] != b'"' {
            k += if b[k] == b'\\' { 2 } else { 1 };
        }
        (k + 1).min(b.len())
    };
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c == b'\n' {
            line += 1;
            i += 1;
            continue;
        } else if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |k| i + k);
            continue;
        } else if src[i..].starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if src[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == b'"' {
            i = quoted_end(i);
            out.push((Tok::Str(src[start + 1..i - 1].to_string()), line));
        } else if let Some((after_r, hashes)) = raw_string_start(b, i) {
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let end = src[after_r..].find(&close).map_or(b.len(), |k| after_r + k);
            out.push((Tok::Str(src[after_r..end].to_string()), line));
            i = (end + close.len()).min(b.len());
        } else if c == b'b' && b.get(i + 1) == Some(&b'"') {
            i = quoted_end(i + 1);
            out.push((Tok::Lit, line));
        } else if c == b'\'' || (c == b'b' && b.get(i + 1) == Some(&b'\'')) {
            let k = if c == b'\'' { i + 1 } else { i + 2 };
            if b.get(k) == Some(&b'\\') {
                i = src[k + 2..].find('\'').map_or(b.len(), |e| k + 2 + e + 1);
            } else {
                // One character (maybe multi-byte) then a quote: a char literal; else a lifetime.
                let ch_len = src[k..].chars().next().map_or(1, char::len_utf8);
                if b.get(k + ch_len) == Some(&b'\'') {
                    i = k + ch_len + 1;
                } else {
                    i = ident(k);
                }
            }
            out.push((Tok::Lit, line));
        } else if c == b'r' && b.get(i + 1) == Some(&b'#') && b.get(i + 2).is_some_and(|x| x.is_ascii_alphabetic()) {
            i = ident(i + 2);
            out.push((Tok::Id(src[start + 2..i].to_string()), line));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            i = ident(i);
            out.push((Tok::Id(src[start..i].to_string()), line));
        } else if c.is_ascii_digit() {
            i = ident(i);
            if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                i = ident(i + 1);
            }
            out.push((Tok::Lit, line));
        } else if c == b'$' && b.get(i + 1).is_some_and(|x| x.is_ascii_alphabetic() || *x == b'_') {
            i = ident(i + 1);
            out.push((Tok::Id(src[start..i].to_string()), line));
        } else if src[i..].starts_with("::") {
            i += 2;
            out.push((Tok::Punct("::"), line));
        } else {
            let ch = src[i..].chars().next().unwrap();
            i += ch.len_utf8();
            out.push((Tok::Other(ch), line));
        }
        line += src[start..i].matches('\n').count() as u32;
    }
    out
}

/// The index after `r"`, `r#"`, `br##"`, `cr"`... and the number of `#`s, when a raw string
/// starts at `i`.
fn raw_string_start(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut k = i;
    if b[k] == b'b' || b[k] == b'c' {
        k += 1;
    }
    if b.get(k) != Some(&b'r') {
        return None;
    }
    k += 1;
    let hashes_start = k;
    while b.get(k) == Some(&b'#') {
        k += 1;
    }
    (b.get(k) == Some(&b'"')).then_some((k + 1, k - hashes_start))
}

// ----- the module tree and the paths each file writes ------------------------------------------

type Mod = Vec<String>;

struct Import {
    module: Mod,
    segs: Vec<String>,
}

/// A path written in a file.
struct PathRef {
    file: String,
    module: Mod,
    segs: Vec<String>,
    line: u32,
    glob: bool,
    /// For a `pub use` leaf, the name it re-exports: an edge only if the file also uses it.
    reexport: Option<String>,
}

#[derive(Default)]
struct Crate {
    /// Module -> file defining its items (inline modules map to their file).
    files: BTreeMap<Mod, String>,
    defs: HashMap<Mod, BTreeSet<String>>,
    imports: HashMap<Mod, HashMap<String, Import>>,
    globs: HashMap<Mod, Vec<Import>>,
    paths: Vec<PathRef>,
    /// Identifiers each file uses outside `use` statements.
    idents: HashMap<String, BTreeSet<String>>,
    /// Module-import leaves (`use crate::printer;`) are recorded but make no edge.
    macros: HashMap<String, String>,
}

const ITEM_KEYWORDS: &[&str] = &["fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod"];

fn load(src_dir: &Path, root: &str) -> Crate {
    let mut krate = Crate::default();
    let mut pending: Vec<(String, Mod, bool)> = vec![(root.into(), vec![], true)];
    while let Some((rel, module, is_mod_rs)) = pending.pop() {
        let text = std::fs::read_to_string(src_dir.join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let mut toks = lex(&text);
        toks.extend([(Tok::Other(';'), 0), (Tok::Other(';'), 0), (Tok::Other(';'), 0)]);
        let dir = if is_mod_rs {
            Path::new(&rel).parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            Path::new(&rel).with_extension("")
        };
        scan(&mut krate, &toks, &rel, module, dir, src_dir, &mut pending);
    }
    krate
}

/// The index after the item starting at `i` (at its `;`, or its first `{ ... }` block).
fn skip_item(toks: &[(Tok, u32)], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < toks.len() {
        let t = &toks[i].0;
        if t.is("{") || t.is("(") || t.is("[") {
            depth += 1;
        } else if t.is("}") || t.is(")") || t.is("]") {
            depth -= 1;
            if depth == 0 && t.is("}") {
                return i + 1;
            }
        } else if depth == 0 && t.is(";") {
            return i + 1;
        }
        i += 1;
    }
    i
}

fn scan(
    krate: &mut Crate,
    toks: &[(Tok, u32)],
    rel: &str,
    module: Mod,
    dir: PathBuf,
    src_dir: &Path,
    pending: &mut Vec<(String, Mod, bool)>,
) {
    krate.files.insert(module.clone(), rel.to_string());
    krate.defs.entry(module.clone()).or_default();
    // (brace depth at which an inline module's items are, its path, the dir of its children)
    let mut scopes: Vec<(usize, Mod, PathBuf)> = vec![(0, module, dir)];
    let mut depth = 0usize;
    let mut attrs: Vec<Vec<Tok>> = Vec::new();
    let mut i = 0;
    let mut prev_is_colons = false;
    let mut public = false;
    while i + 3 < toks.len() {
        let (t, line) = (&toks[i].0, toks[i].1);
        let (cur, cur_dir) = (scopes.last().unwrap().1.clone(), scopes.last().unwrap().2.clone());
        if t.is("#") && (toks[i + 1].0.is("[") || toks[i + 1].0.is("!")) {
            let inner = toks[i + 1].0.is("!");
            let mut j = i + if inner { 3 } else { 2 };
            let (mut level, mut body) = (1, Vec::new());
            while level > 0 {
                if toks[j].0.is("[") {
                    level += 1;
                } else if toks[j].0.is("]") {
                    level -= 1;
                }
                if level > 0 {
                    body.push(toks[j].0.clone());
                }
                j += 1;
            }
            if !inner {
                attrs.push(body);
            }
            i = j;
            continue;
        }
        let is_test =
            attrs.iter().any(|a| a.len() >= 4 && a[0].is("cfg") && a[1].is("(") && a[2].is("test") && a[3].is(")"));
        let macro_export = attrs.iter().any(|a| a.first().is_some_and(|x| x.is("macro_export")));
        if is_test {
            attrs.clear();
            i = skip_item(toks, i);
            continue;
        }
        if t.is("pub") || (t.is("(") && i > 0 && toks[i - 1].0.is("pub")) {
            // `pub`, `pub(crate)`: keep the attributes for the item that follows.
            i = if t.is("(") { skip_item_parens(toks, i) } else { i + 1 };
            public = true;
            continue;
        }
        // `#[path = "..."]` on the next `mod x;`: relative to the directory of this file.
        let path_attr = attrs.iter().find_map(|a| match a.as_slice() {
            [p, eq, Tok::Str(s)] if p.is("path") && eq.is("=") => Some(s.clone()),
            _ => None,
        });
        attrs.clear();
        let is_pub = std::mem::take(&mut public);
        if let Some(id) = t.id()
            && id != "use"
        {
            krate.idents.entry(rel.to_string()).or_default().insert(id.to_string());
        }
        if t.is("{") {
            depth += 1;
        } else if t.is("}") {
            depth -= 1;
            while scopes.len() > 1 && depth < scopes.last().unwrap().0 {
                scopes.pop();
            }
        } else if t.is("mod") && toks[i + 1].0.id().is_some() {
            let name = toks[i + 1].0.id().unwrap().to_string();
            let mut child = cur.clone();
            child.push(name.clone());
            krate.defs.entry(cur.clone()).or_default().insert(name.clone());
            if toks[i + 2].0.is(";") {
                if let Some(path) = path_attr {
                    let file_dir = Path::new(rel).parent().map(Path::to_path_buf).unwrap_or_default();
                    let target = normalize(&file_dir.join(path));
                    let is_mod_rs = target.file_name().is_some_and(|f| f == "mod.rs");
                    pending.push((target.to_string_lossy().into_owned(), child, is_mod_rs));
                    i += 3;
                    continue;
                }
                let base = cur_dir.join(&name);
                let flat = base.with_extension("rs");
                if src_dir.join(&flat).exists() {
                    pending.push((flat.to_string_lossy().into_owned(), child, false));
                } else {
                    pending.push((base.join("mod.rs").to_string_lossy().into_owned(), child, true));
                }
                i += 3;
                continue;
            }
            if toks[i + 2].0.is("{") {
                krate.files.insert(child.clone(), rel.to_string());
                krate.defs.entry(child.clone()).or_default();
                depth += 1;
                scopes.push((depth, child, cur_dir.join(&name)));
                i += 3;
                continue;
            }
        } else if t.is("use") && !prev_is_colons {
            let mut leaves = Vec::new();
            let j = parse_use_tree(toks, i + 1, &[], &mut leaves);
            for (segs, alias, glob, line) in leaves {
                let reexport = if is_pub { alias.clone() } else { None };
                let file = rel.to_string();
                krate.paths.push(PathRef { file, module: cur.clone(), segs: segs.clone(), line, glob, reexport });
                let import = Import { module: cur.clone(), segs };
                if glob {
                    krate.globs.entry(cur.clone()).or_default().push(import);
                } else if let Some(alias) = alias {
                    krate.imports.entry(cur.clone()).or_default().insert(alias, import);
                }
            }
            i = j + 1;
            prev_is_colons = false;
            continue;
        } else if t.is("macro_rules") && toks[i + 1].0.is("!") {
            if macro_export && let Some(name) = toks[i + 2].0.id() {
                krate.macros.insert(name.to_string(), rel.to_string());
            }
        } else if let Some(kw) = t.id()
            && ITEM_KEYWORDS.contains(&kw)
            && depth == scopes.last().unwrap().0
            && let Some(name) = toks[i + 1].0.id()
        {
            krate.defs.entry(cur.clone()).or_default().insert(name.to_string());
        } else if let Some(first) = t.id()
            && toks[i + 1].0.is("::")
            && !prev_is_colons
        {
            let mut segs = vec![first.to_string()];
            let mut j = i + 1;
            while toks[j].0.is("::")
                && let Some(next) = toks[j + 1].0.id()
            {
                segs.push(next.to_string());
                j += 2;
            }
            let file = rel.to_string();
            krate.paths.push(PathRef { file, module: cur.clone(), segs, line, glob: false, reexport: None });
            i = j;
            prev_is_colons = false;
            continue;
        }
        prev_is_colons = t.is("::");
        i += 1;
    }
}

/// `a/b/../c` as `a/c` (paths stay relative to `src/`).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn skip_item_parens(toks: &[(Tok, u32)], mut i: usize) -> usize {
    let mut level = 0;
    loop {
        if toks[i].0.is("(") {
            level += 1;
        } else if toks[i].0.is(")") {
            level -= 1;
            if level == 0 {
                return i + 1;
            }
        }
        i += 1;
    }
}

/// Parses the use tree at `toks[i]`; pushes (path, bound name, is glob, line) per leaf.
fn parse_use_tree(
    toks: &[(Tok, u32)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>, bool, u32)>,
) -> usize {
    let mut segs = prefix.to_vec();
    if toks[i].0.is("::") {
        i += 1;
        segs.push("::".into());
    }
    loop {
        let (t, line) = (&toks[i].0, toks[i].1);
        if t.is("{") {
            i += 1;
            while !toks[i].0.is("}") {
                i = parse_use_tree(toks, i, &segs, out);
                if toks[i].0.is(",") {
                    i += 1;
                }
            }
            return i + 1;
        }
        if t.is("*") {
            out.push((segs, None, true, line));
            return i + 1;
        }
        let Some(name) = t.id() else { return i + 1 };
        segs.push(name.to_string());
        i += 1;
        if toks[i].0.is("::") {
            i += 1;
            continue;
        }
        let mut alias = name.to_string();
        if toks[i].0.is("as") {
            alias = toks[i + 1].0.id().unwrap_or("_").to_string();
            i += 2;
        }
        if name == "self" {
            segs.pop();
            if alias == "self" {
                alias = segs.last().cloned().unwrap_or_default();
            }
        }
        let bound = (alias != "_" && !alias.is_empty()).then_some(alias);
        out.push((segs, bound, false, line));
        return i;
    }
}

// ----- resolution -----------------------------------------------------------------------------

impl Crate {
    /// The path from the crate root; `None` for other crates, std and local items.
    fn absolute(&self, module: &Mod, segs: &[String], guard: u32) -> Option<Vec<String>> {
        let (head, rest) = segs.split_first()?;
        if guard > 32 || head == "::" {
            return None;
        }
        match head.as_str() {
            "crate" | "$crate" => Some(rest.to_vec()),
            "self" => Some(module.iter().chain(rest).cloned().collect()),
            "super" => {
                let mut m = module.clone();
                let mut s = segs;
                while s.first().is_some_and(|x| x == "super") {
                    m.pop();
                    s = &s[1..];
                }
                Some(m.into_iter().chain(s.iter().cloned()).collect())
            }
            _ => {
                let mut child = module.clone();
                child.push(head.clone());
                if self.files.contains_key(&child) {
                    return Some(module.iter().chain(segs).cloned().collect());
                }
                let import = self.imports.get(module)?.get(head)?;
                let mut base = self.absolute(&import.module, &import.segs, guard + 1)?;
                base.extend(rest.iter().cloned());
                Some(base)
            }
        }
    }

    /// The file defining the item `path` names; `None` when it names a module.
    fn owner(&self, path: &[String], guard: u32) -> Option<String> {
        let k = (0..=path.len()).rev().find(|&k| self.files.contains_key(&path[..k]))?;
        let (module, rest) = (path[..k].to_vec(), &path[k..]);
        let follow = |import: &Import, tail: &[String]| -> Option<String> {
            let mut base = self.absolute(&import.module, &import.segs, guard + 1)?;
            if base == path {
                return None;
            }
            base.extend(tail.iter().cloned());
            self.owner(&base, guard + 1)
        };
        let Some((name, tail)) = rest.split_first() else {
            // A module; a value or type of the same name imported next to it wins.
            let (parent, name) = (path[..path.len().checked_sub(1)?].to_vec(), path.last()?);
            let import = self.imports.get(&parent)?.get(name)?;
            return if guard < 32 { follow(import, &[]) } else { None };
        };
        if guard < 32 && !self.defs.get(&module).is_some_and(|d| d.contains(name)) {
            if let Some(import) = self.imports.get(&module).and_then(|m| m.get(name))
                && let Some(owner) = follow(import, tail)
            {
                return Some(owner);
            }
            if module.is_empty()
                && let Some(file) = self.macros.get(name)
            {
                return Some(file.clone());
            }
            for glob in self.globs.get(&module).into_iter().flatten() {
                let Some(base) = self.absolute(&glob.module, &glob.segs, guard + 1) else { continue };
                let defines = self.defs.get(&base).is_some_and(|d| d.contains(name))
                    || self.imports.get(&base).is_some_and(|m| m.contains_key(name));
                if defines {
                    let mut p = base;
                    p.extend(rest.iter().cloned());
                    return self.owner(&p, guard + 1);
                }
            }
        }
        self.files.get(&module).cloned()
    }

    /// file -> imported file -> the paths (`file:line: path`) making the edge.
    fn edges(&self) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
        let mut out: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for PathRef { file, module, segs, line, glob, reexport } in &self.paths {
            if let Some(name) = reexport
                && !self.idents.get(file).is_some_and(|ids| ids.contains(name))
            {
                continue; // a pure re-export: users resolve through it; it is no edge itself
            }
            let Some(path) = self.absolute(module, segs, 0) else { continue };
            let target = if *glob { self.files.get(&path).cloned() } else { self.owner(&path, 0) };
            if let Some(target) = target.filter(|t| t != file) {
                let why = format!("{file}:{line}: {}", segs.join("::"));
                out.entry(file.clone()).or_default().entry(target).or_default().push(why);
            }
        }
        out
    }
}

/// Strongly connected components with more than one file (Tarjan, recursive: the graph is small).
pub fn circles(nodes: &BTreeSet<String>, edges: &BTreeMap<String, BTreeMap<String, Vec<String>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, Vec<String>>>,
        index: HashMap<&'a str, usize>,
        low: HashMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.edges.get(v).into_iter().flat_map(|m| m.keys()) {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let lw = s.low[w.as_str()];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w.as_str()) {
                let iw = s.index[w.as_str()];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State { edges, index: HashMap::new(), low: HashMap::new(), stack: Vec::new(), out: Vec::new() };
    for v in nodes {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch crate under the target directory: `files` are `(path under src/, text)`.
    fn scratch(name: &str, manifest_deps: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fuser-layering-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (rel, text) in files {
            let p = dir.join("src").join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        std::fs::write(dir.join("Cargo.toml"), format!("[package]\nname = \"x\"\n\n[dependencies]\n{manifest_deps}"))
            .unwrap();
        dir
    }

    const LOW_HIGH: &[(&str, &[&str])] = &[("low", &["low.rs"]), ("high", &["high.rs", "lib.rs"])];

    #[test]
    fn a_sound_crate_passes() {
        let dir = scratch(
            "ok",
            "half = \"2\"\n",
            &[
                ("lib.rs", "mod low;\nmod high;\n"),
                ("low.rs", "pub fn f() -> Option<half::f16> { None }\n"),
                ("high.rs", "use crate::low::f;\n"),
            ],
        );
        let spec = Layers { name: "x", layers: LOW_HIGH, known_circles: &[] };
        let (_, edges) = check(dir.to_str().unwrap(), &spec).unwrap();
        assert!(edges["high.rs"].contains_key("low.rs"));
    }

    #[test]
    fn each_violation_is_reported() {
        let dir = scratch(
            "bad",
            "half = \"2\"\nfuser-ir.workspace = true\n",
            &[
                ("lib.rs", "mod low;\nmod high;\nmod stray;\n"),
                ("low.rs", "use crate::high::g;\npub fn f() {}\n"),
                ("high.rs", "use crate::low::f;\npub fn g() -> Option<half::f16> { None }\n"),
                ("stray.rs", "\n"),
            ],
        );
        let spec = Layers { name: "x", layers: LOW_HIGH, known_circles: &[] };
        let err = check(dir.to_str().unwrap(), &spec).unwrap_err();
        assert!(err.contains("files without a layer") && err.contains("stray.rs"), "{err}");
        assert!(err.contains("low.rs (low) imports high.rs (high)"), "{err}");
        assert!(err.contains("new import circle") && err.contains("\"high.rs\", \"low.rs\""), "{err}");
        assert!(err.contains("dependency `fuser_ir`"), "{err}");
        assert!(!err.contains("dependency `half`"), "{err}");
        // A known circle is tolerated (the upward import is still an error).
        let spec = Layers { name: "x", layers: LOW_HIGH, known_circles: &[&["high.rs", "low.rs"]] };
        let err = check(dir.to_str().unwrap(), &spec).unwrap_err();
        assert!(!err.contains("new import circle"), "{err}");
    }

    #[test]
    fn binary_roots_are_scanned() {
        let dir = scratch(
            "bins",
            "",
            &[
                ("main.rs", "mod cli;\n"),
                ("cli.rs", "use crate::x::y;\n"),
                ("bin/tool.rs", "mod helper;\n"),
                ("bin/helper.rs", "\n"),
            ],
        );
        let (files, _) = graph(&dir.join("src"));
        assert!(files.contains("cli.rs") && files.contains("bin/helper.rs"), "{files:?}");
    }
}
