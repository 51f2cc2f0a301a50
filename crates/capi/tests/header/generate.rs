//! Generates `include/fuser.h` from the Rust source of the C ABI, so that the header cannot
//! drift from what the library exports.
//!
//! The source follows a small, fixed style that this line-based reader understands: items
//! start at column 0 and are preceded by their `///` docs; `#[repr(C)] pub enum` and
//! `#[repr(C)] pub struct` become C enums and structs, a `pub struct` without `#[repr(C)]` an
//! opaque handle, `pub const NAME: u32` a `#define`, `pub type NAME = Option<unsafe extern "C"
//! fn(..) -> R>` a function pointer typedef, and `pub unsafe extern "C" fn` a prototype. The
//! crate docs of `lib.rs` become the header's leading comment. Anything else is ignored.

/// The files that declare the ABI, in declaration order (a C type must precede its uses).
pub const SOURCES: &[&str] = &["status.rs", "diagnostics.rs", "context.rs", "module.rs"];

/// The header for the crate docs of `lib` and the ABI files' texts (in [`SOURCES`] order).
pub fn header(lib: &str, sources: &[String]) -> Result<String, String> {
    let mut out = String::new();
    out.push_str(
        "/* fuser.h: the C ABI of fuser (crates/capi).\n * Generated from the Rust source by \
         crates/capi/tests/header; do not edit. After changing the ABI run\n * \
         FUSER_BLESS=1 cargo test -p fuser-capi --test header */\n",
    );
    out.push_str("#ifndef FUSER_H\n#define FUSER_H\n\n#include <stddef.h>\n#include <stdint.h>\n\n");
    out.push_str("#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    let crate_docs: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
        .collect();
    out.push_str(&comment(&crate_docs, ""));
    out.push('\n');
    for source in sources {
        for item in items(source)? {
            out.push_str(&item);
            out.push('\n');
        }
    }
    out.push_str("#ifdef __cplusplus\n}\n#endif\n\n#endif /* FUSER_H */\n");
    Ok(out)
}

/// The C declarations of one file, each with its comment.
fn items(source: &str) -> Result<Vec<String>, String> {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = Vec::new();
    let (mut docs, mut repr_c) = (Vec::new(), false);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if let Some(doc) = line.strip_prefix("///") {
            docs.push(doc.strip_prefix(' ').unwrap_or(doc).to_string());
            continue;
        }
        if line.starts_with("#[") {
            repr_c |= line.starts_with("#[repr(C)]");
            continue;
        }
        let decl = if let Some(rest) = line.strip_prefix("pub enum ") {
            let (body, next) = block(&lines, i)?;
            i = next;
            Some(c_enum(name_before(rest, " {")?, &body)?)
        } else if let Some(rest) = line.strip_prefix("pub struct ") {
            let name = name_before(rest, " {")?;
            let (body, next) = block(&lines, i)?;
            i = next;
            Some(if repr_c { c_struct(name, &body)? } else { format!("typedef struct {name} {name};\n") })
        } else if let Some(rest) = line.strip_prefix("pub const ") {
            Some(c_define(rest)?)
        } else if line.starts_with("pub type ") || line.starts_with("pub unsafe extern \"C\" fn ") {
            let (joined, next) = join_until(&lines, i - 1, |l| l.ends_with(';') || l.ends_with('{'))?;
            i = next;
            Some(if line.starts_with("pub type ") { c_fn_typedef(&joined)? } else { c_prototype(&joined)? })
        } else {
            None
        };
        if let Some(decl) = decl {
            out.push(format!("{}{decl}", comment(&docs, "")));
        }
        docs.clear();
        repr_c = false;
    }
    Ok(out)
}

/// The lines after an opening `{` up to the closing `}` at column 0, and the index after it.
fn block(lines: &[&str], start: usize) -> Result<(Vec<String>, usize), String> {
    let end = (start..lines.len()).find(|&j| lines[j] == "}").ok_or("unclosed block")?;
    Ok((lines[start..end].iter().map(|l| l.trim().to_string()).collect(), end + 1))
}

/// Lines from `start` joined with spaces until `done` holds for one, and the index after it.
fn join_until(lines: &[&str], start: usize, done: impl Fn(&str) -> bool) -> Result<(String, usize), String> {
    let end = (start..lines.len()).find(|&j| done(lines[j].trim_end())).ok_or("unterminated declaration")?;
    let joined: Vec<&str> = lines[start..=end].iter().map(|l| l.trim()).collect();
    Ok((joined.join(" ").replace("( ", "(").replace(", )", ")"), end + 1))
}

fn name_before<'a>(rest: &'a str, end: &str) -> Result<&'a str, String> {
    rest.strip_suffix(end).ok_or_else(|| format!("expected `{end}` after `{rest}`"))
}

/// `typedef enum NAME { VARIANT = N, ... } NAME;`
fn c_enum(name: &str, body: &[String]) -> Result<String, String> {
    let mut out = format!("typedef enum {name} {{\n");
    let mut docs = Vec::new();
    for line in body {
        if let Some(doc) = line.strip_prefix("///") {
            docs.push(doc.trim_start().to_string());
        } else if let Some(variant) = line.strip_suffix(',') {
            out.push_str(&comment(&docs, "  "));
            out.push_str(&format!("  {variant},\n"));
            docs.clear();
        } else if !line.is_empty() {
            return Err(format!("enum {name}: cannot read `{line}`"));
        }
    }
    out.push_str(&format!("}} {name};\n"));
    Ok(out)
}

/// `typedef struct NAME { TYPE field; ... } NAME;`
fn c_struct(name: &str, body: &[String]) -> Result<String, String> {
    let mut out = format!("typedef struct {name} {{\n");
    let mut docs = Vec::new();
    for line in body {
        if let Some(doc) = line.strip_prefix("///") {
            docs.push(doc.trim_start().to_string());
        } else if let Some(field) = line.strip_prefix("pub ").and_then(|f| f.strip_suffix(',')) {
            out.push_str(&comment(&docs, "  "));
            out.push_str(&format!("  {};\n", c_param(field)?));
            docs.clear();
        } else if !line.is_empty() {
            return Err(format!("struct {name}: cannot read `{line}` (fields of a C struct are `pub`)"));
        }
    }
    out.push_str(&format!("}} {name};\n"));
    Ok(out)
}

/// `pub const NAME: u32 = VALUE;` as `#define NAME VALUEu`.
fn c_define(rest: &str) -> Result<String, String> {
    let (name, value) = rest.split_once(": u32 = ").ok_or_else(|| format!("constant `{rest}` is not a u32"))?;
    let value = value.strip_suffix(';').ok_or("constant without `;`")?;
    Ok(format!("#define {name} {value}u\n"))
}

/// `pub type NAME = Option<unsafe extern "C" fn(PARAMS) -> RET>;`
fn c_fn_typedef(decl: &str) -> Result<String, String> {
    let rest = decl.strip_prefix("pub type ").ok_or("not a type")?;
    let (name, def) = rest.split_once(" = ").ok_or("type without `=`")?;
    let sig = def
        .strip_prefix("Option<unsafe extern \"C\" fn")
        .and_then(|s| s.strip_suffix(">;"))
        .ok_or_else(|| format!("type {name} is not a nullable C function pointer"))?;
    let (params, ret) = split_signature(sig)?;
    Ok(format!("typedef {} (*{name})({});\n", c_type(&ret)?, c_params(&params)?))
}

/// `pub unsafe extern "C" fn NAME(PARAMS) -> RET {` as a prototype.
fn c_prototype(decl: &str) -> Result<String, String> {
    let rest = decl.strip_prefix("pub unsafe extern \"C\" fn ").ok_or("not a function")?;
    let open = rest.find('(').ok_or("function without parameters")?;
    let (name, sig) = rest.split_at(open);
    let sig = sig.strip_suffix(" {").ok_or_else(|| format!("fn {name}: expected ` {{` after the signature"))?;
    let (params, ret) = split_signature(sig)?;
    Ok(format!("{} {name}({});\n", c_type(&ret)?, c_params(&params)?))
}

/// `(PARAMS) -> RET` into the parameter text and the return type (`void` when absent).
fn split_signature(sig: &str) -> Result<(String, String), String> {
    let close = matching_paren(sig)?;
    let params = sig[1..close].trim().trim_end_matches(',').to_string();
    let ret = match sig[close + 1..].trim().strip_prefix("->") {
        Some(r) => r.trim().to_string(),
        None => "()".to_string(),
    };
    Ok((params, ret))
}

fn matching_paren(s: &str) -> Result<usize, String> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    Err(format!("unbalanced parentheses in `{s}`"))
}

/// `a: T, b: U` as `T a, U b` (`void` when empty).
fn c_params(params: &str) -> Result<String, String> {
    if params.is_empty() {
        return Ok("void".to_string());
    }
    let list: Result<Vec<String>, String> = split_top_level(params).iter().map(|p| c_param(p)).collect();
    Ok(list?.join(", "))
}

/// `name: T` as `T name`, with the `*` next to the name.
fn c_param(param: &str) -> Result<String, String> {
    let (name, ty) = param.split_once(':').ok_or_else(|| format!("parameter `{param}` has no type"))?;
    let ty = c_type(ty.trim())?;
    Ok(if ty.ends_with('*') { format!("{ty}{}", name.trim()) } else { format!("{ty} {}", name.trim()) })
}

fn split_top_level(s: &str) -> Vec<String> {
    let (mut parts, mut depth, mut current) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

/// A Rust FFI type as C.
fn c_type(ty: &str) -> Result<String, String> {
    if let Some(inner) = ty.strip_prefix("*const ") {
        return Ok(format!("const {}", pointer_to(c_type(inner)?)));
    }
    if let Some(inner) = ty.strip_prefix("*mut ") {
        return Ok(pointer_to(c_type(inner)?));
    }
    let scalar = match ty {
        "()" => "void",
        "c_char" => "char",
        "c_void" => "void",
        "u8" => "uint8_t",
        "u32" => "uint32_t",
        "i32" => "int32_t",
        "u64" => "uint64_t",
        "i64" => "int64_t",
        "usize" => "size_t",
        t if t.starts_with("fuser_") && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => t,
        t => return Err(format!("no C spelling for the Rust type `{t}`")),
    };
    Ok(scalar.to_string())
}

fn pointer_to(c: String) -> String {
    if c.ends_with('*') { format!("{c}*") } else { format!("{c} *") }
}

/// A C comment of doc lines (nothing when there are none).
fn comment(docs: &[String], indent: &str) -> String {
    match docs {
        [] => String::new(),
        [one] => format!("{indent}/** {one} */\n"),
        many => {
            let mut out = format!("{indent}/**\n");
            for l in many {
                if l.is_empty() {
                    out.push_str(&format!("{indent} *\n"));
                } else {
                    out.push_str(&format!("{indent} * {l}\n"));
                }
            }
            out.push_str(&format!("{indent} */\n"));
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_parameters() {
        assert_eq!(c_type("*mut *mut fuser_module").unwrap(), "fuser_module **");
        assert_eq!(c_type("*const c_char").unwrap(), "const char *");
        assert_eq!(c_param("out: *mut *const c_char").unwrap(), "const char **out");
        assert_eq!(c_param("len: usize").unwrap(), "size_t len");
        assert!(c_type("String").is_err());
    }

    #[test]
    fn prototype_and_typedef() {
        let f = "pub unsafe extern \"C\" fn fuser_x(a: *const fuser_module, n: u32) -> fuser_status {";
        assert_eq!(c_prototype(f).unwrap(), "fuser_status fuser_x(const fuser_module *a, uint32_t n);\n");
        let t = "pub type fuser_cb = Option<unsafe extern \"C\" fn(data: *const c_char, user: *mut c_void) -> i32>;";
        assert_eq!(c_fn_typedef(t).unwrap(), "typedef int32_t (*fuser_cb)(const char *data, void *user);\n");
    }
}
