//! Typed pass options: declarations ([`OptionDef`], `'static` data next to a pass's
//! [`PassInfo`](super::PassInfo)), parsed values ([`OptionValues`]), the parser of MLIR's option
//! syntax `{key=value key2=a,b flag}` and the canonical printer used by `--dump-pass-pipeline`.
//!
//! Syntax (as MLIR's pass-option parser accepts it):
//! - options are separated by whitespace; each is `key=value` or a bare `key` (bare means `true`
//!   for a boolean option and is an error for any other);
//! - a value runs to the next whitespace outside quotes (`"..."`, `'...'`) and brackets
//!   (`{}`, `()`, `[]`), so `op-pipelines=func.func(cse)` and `p="a b"` are single values;
//! - a value wholly wrapped in quotes loses them; a list value wholly wrapped in `{...}` loses
//!   the braces; list elements are separated by top-level commas;
//! - a repeated scalar option keeps the last value; a repeated list option appends.
//!
//! Canonical form (MLIR's): options sorted by name, each printed `name=value`, joined by single
//! spaces; an empty list prints as nothing (so `canonicalize{  max-iterations=3 ...}` keeps the
//! two separators of its two empty list options).
//!
//! Invariant: an [`OptionValues`] always holds exactly one value per declaration, of the
//! declared type; accessors panic only when a pass asks for an option it did not declare (a
//! programming error), never on user input.

use std::fmt::Write as _;

/// One allowed value of an enum option.
#[derive(Clone, Copy, Debug)]
pub struct EnumCase {
    pub name: &'static str,
    pub description: &'static str,
}

/// The element type of an option.
#[derive(Clone, Copy, Debug)]
pub enum OptionType {
    Bool,
    /// A signed 64-bit integer (`long` in LLVM's terms).
    Int,
    String,
    Enum(&'static [EnumCase]),
}

impl OptionType {
    /// The `<...>` placeholder `--help` shows after `=`, as LLVM's command line library does.
    pub fn help_placeholder(self) -> Option<&'static str> {
        match self {
            OptionType::Bool => None,
            OptionType::Int => Some("<long>"),
            OptionType::String => Some("<string>"),
            OptionType::Enum(_) => Some("<value>"),
        }
    }
}

/// The declaration of one pass option.
#[derive(Clone, Copy, Debug)]
pub struct OptionDef {
    /// The key, e.g. `max-iterations`.
    pub name: &'static str,
    pub description: &'static str,
    pub ty: OptionType,
    /// A list option holds any number of elements of `ty`.
    pub list: bool,
    /// The default, written in option syntax (`"10"`, `"true"`, `"normal"`, `"a,b"`; `""` is
    /// the empty list or the empty string).
    pub default: &'static str,
}

impl OptionDef {
    pub const fn new(name: &'static str, ty: OptionType, default: &'static str, description: &'static str) -> Self {
        OptionDef { name, description, ty, list: false, default }
    }
    pub const fn list(name: &'static str, ty: OptionType, default: &'static str, description: &'static str) -> Self {
        OptionDef { name, description, ty, list: true, default }
    }
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    String(String),
    /// The name of an enum case.
    Enum(String),
    List(Vec<OptionValue>),
}

impl OptionValue {
    /// The value in option syntax, quoted where needed so that it parses back.
    fn write_canonical(&self, out: &mut String, in_list: bool) {
        match self {
            OptionValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            OptionValue::Int(i) => {
                let _ = write!(out, "{i}");
            }
            OptionValue::String(s) | OptionValue::Enum(s) => write_string(out, s, in_list),
            OptionValue::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_canonical(out, true);
                }
            }
        }
    }
}

/// Writes a string value, quoting it when it would not parse back as one value.
fn write_string(out: &mut String, s: &str, in_list: bool) {
    let needs_quotes = s.chars().any(|c| c.is_whitespace() || (in_list && c == ',')) || !brackets_balanced(s);
    if !needs_quotes {
        out.push_str(s);
    } else if !s.contains('"') {
        let _ = write!(out, "\"{s}\"");
    } else {
        let _ = write!(out, "'{s}'");
    }
}

fn brackets_balanced(s: &str) -> bool {
    let mut depth: i64 = 0;
    for c in s.chars() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// The values of all options of one pass (or named pipeline), one per declaration.
#[derive(Clone, Debug)]
pub struct OptionValues {
    defs: &'static [OptionDef],
    values: Vec<OptionValue>,
}

impl OptionValues {
    /// Every option at its declared default. Fails only if a default is malformed.
    pub fn defaults(defs: &'static [OptionDef]) -> Result<Self, String> {
        let values = defs
            .iter()
            .map(|d| parse_value(d, d.default).map_err(|e| format!("bad default of option '{}': {e}", d.name)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(OptionValues { defs, values })
    }

    /// Defaults, then the options written in `text` (the part between `{` and `}`).
    pub fn parse(defs: &'static [OptionDef], text: &str) -> Result<Self, String> {
        let mut values = Self::defaults(defs)?;
        values.apply(text)?;
        Ok(values)
    }

    /// Applies the options written in `text` on top of the current values.
    pub fn apply(&mut self, text: &str) -> Result<(), String> {
        let mut seen = vec![false; self.defs.len()];
        for (key, value) in split_options(text)? {
            let Some(i) = self.defs.iter().position(|d| d.name == key) else {
                return Err(format!("<Pass-Options-Parser>: no such option {key}"));
            };
            let def = &self.defs[i];
            let parsed = match value {
                Some(v) => parse_value(def, v)?,
                None if !def.list && matches!(def.ty, OptionType::Bool) => OptionValue::Bool(true),
                None => return Err(format!("for the --{key} option: requires a value!")),
            };
            match (&mut self.values[i], parsed) {
                (OptionValue::List(old), OptionValue::List(new)) if seen[i] => old.extend(new),
                (slot, new) => *slot = new,
            }
            seen[i] = true;
        }
        Ok(())
    }

    /// Sets one option from its textual value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let i = self.index(name).ok_or_else(|| format!("<Pass-Options-Parser>: no such option {name}"))?;
        self.values[i] = parse_value(&self.defs[i], value)?;
        Ok(())
    }

    pub fn defs(&self) -> &'static [OptionDef] {
        self.defs
    }
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.defs.iter().position(|d| d.name == name)
    }

    /// The value of a declared option. Panics if the option is not declared (a bug in the pass).
    pub fn get(&self, name: &str) -> &OptionValue {
        match self.index(name) {
            Some(i) => &self.values[i],
            None => panic!("pass option '{name}' is not declared"),
        }
    }
    pub fn get_bool(&self, name: &str) -> bool {
        matches!(self.get(name), OptionValue::Bool(true))
    }
    pub fn get_int(&self, name: &str) -> i64 {
        match self.get(name) {
            OptionValue::Int(i) => *i,
            other => panic!("pass option '{name}' is not an integer: {other:?}"),
        }
    }
    /// A string or enum option's text.
    pub fn get_str(&self, name: &str) -> &str {
        match self.get(name) {
            OptionValue::String(s) | OptionValue::Enum(s) => s,
            other => panic!("pass option '{name}' is not a string: {other:?}"),
        }
    }
    pub fn get_list(&self, name: &str) -> &[OptionValue] {
        match self.get(name) {
            OptionValue::List(items) => items,
            other => panic!("pass option '{name}' is not a list: {other:?}"),
        }
    }
    /// The elements of a list of strings or enums.
    pub fn get_str_list(&self, name: &str) -> Vec<&str> {
        self.get_list(name)
            .iter()
            .filter_map(|v| match v {
                OptionValue::String(s) | OptionValue::Enum(s) => Some(s.as_str()),
                _ => None,
            })
            .collect()
    }
    pub fn get_int_list(&self, name: &str) -> Vec<i64> {
        self.get_list(name)
            .iter()
            .filter_map(|v| match v {
                OptionValue::Int(i) => Some(*i),
                _ => None,
            })
            .collect()
    }

    /// The canonical form of all options (without braces): sorted by name, `name=value`,
    /// joined by single spaces; empty lists print as nothing.
    pub fn to_canonical_string(&self) -> String {
        let mut order: Vec<usize> = (0..self.defs.len()).collect();
        order.sort_by_key(|&i| self.defs[i].name);
        let mut out = String::new();
        for (n, i) in order.into_iter().enumerate() {
            if n > 0 {
                out.push(' ');
            }
            let value = &self.values[i];
            if matches!(value, OptionValue::List(items) if items.is_empty()) {
                continue;
            }
            out.push_str(self.defs[i].name);
            out.push('=');
            value.write_canonical(&mut out, false);
        }
        out
    }
}

impl PartialEq for OptionValues {
    /// Equal when declared by the same list (by address) and holding equal values.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.defs, other.defs) && self.values == other.values
    }
}

/// Splits option text into `(key, value)` pairs (value `None` for a bare key).
fn split_options(text: &str) -> Result<Vec<(&str, Option<&str>)>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let key_start = i;
        while i < bytes.len() && bytes[i] != b'=' && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = &text[key_start..i];
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            let value_start = i;
            i = scan_value_end(text, i)?;
            out.push((key, Some(&text[value_start..i])));
        } else {
            out.push((key, None));
        }
    }
    Ok(out)
}

/// The end of a value starting at `start`: the first whitespace outside quotes and brackets.
fn scan_value_end(text: &str, start: usize) -> Result<usize, String> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'"' | b'\'') => match text[i + 1..].find(q as char) {
                Some(rel) => i += rel + 1,
                None => {
                    return Err(format!("unterminated quote in option value '{}'", &text[start..]));
                }
            },
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            c if c.is_ascii_whitespace() && depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    Ok(i)
}

/// Removes one pair of matching outer quotes.
fn unquote(s: &str) -> &str {
    let b = s.as_bytes();
    if b.len() >= 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] { &s[1..s.len() - 1] } else { s }
}

/// Splits a list value on commas outside quotes and brackets.
fn split_list(s: &str) -> Vec<&str> {
    let bytes = s.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None::<u8>, 0);
    for (i, &c) in bytes.iter().enumerate() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'{' | b'(' | b'[') => depth += 1,
            (None, b'}' | b')' | b']') => depth = depth.saturating_sub(1),
            (None, b',') if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Parses the text of one option's value according to its declaration.
fn parse_value(def: &OptionDef, text: &str) -> Result<OptionValue, String> {
    if !def.list {
        return parse_scalar(def, unquote(text));
    }
    let mut body = text.trim();
    if body.starts_with('{') && body.ends_with('}') && body.len() >= 2 {
        body = &body[1..body.len() - 1];
    }
    if body.is_empty() {
        return Ok(OptionValue::List(Vec::new()));
    }
    let items = split_list(body)
        .into_iter()
        .map(|item| parse_scalar(def, unquote(item.trim())))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(OptionValue::List(items))
}

fn parse_scalar(def: &OptionDef, text: &str) -> Result<OptionValue, String> {
    let name = def.name;
    match def.ty {
        OptionType::Bool => match text {
            "true" | "TRUE" | "True" | "1" | "" => Ok(OptionValue::Bool(true)),
            "false" | "FALSE" | "False" | "0" => Ok(OptionValue::Bool(false)),
            _ => Err(format!("for the --{name} option: '{text}' is invalid value for boolean argument! Try 0 or 1")),
        },
        OptionType::Int => parse_int(text)
            .map(OptionValue::Int)
            .ok_or_else(|| format!("for the --{name} option: '{text}' value invalid for long argument!")),
        OptionType::String => Ok(OptionValue::String(text.to_string())),
        OptionType::Enum(cases) => match cases.iter().find(|c| c.name == text) {
            Some(c) => Ok(OptionValue::Enum(c.name.to_string())),
            None => Err(format!("for the --{name} option: Cannot find option named '{text}'!")),
        },
    }
}

/// Decimal, `0x` hexadecimal, or `0b` binary, with an optional sign.
fn parse_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let magnitude = if let Some(h) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = digits.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else {
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        digits.parse::<i128>().ok()?
    };
    i64::try_from(if neg { -magnitude } else { magnitude }).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGION: &[EnumCase] = &[
        EnumCase { name: "disabled", description: "none" },
        EnumCase { name: "normal", description: "simple" },
        EnumCase { name: "aggressive", description: "more" },
    ];
    static CANON: &[OptionDef] = &[
        OptionDef::new("top-down", OptionType::Bool, "true", ""),
        OptionDef::new("max-iterations", OptionType::Int, "10", ""),
        OptionDef::new("region-simplify", OptionType::Enum(REGION), "normal", ""),
        OptionDef::list("disable-patterns", OptionType::String, "", ""),
        OptionDef::list("enable-patterns", OptionType::String, "", ""),
        OptionDef::new("label", OptionType::String, "", ""),
        OptionDef::list("sizes", OptionType::Int, "1,2", ""),
    ];

    #[test]
    fn defaults_print_canonically_sorted_with_empty_lists() {
        let v = OptionValues::defaults(CANON).unwrap();
        assert_eq!(
            v.to_canonical_string(),
            "  label= max-iterations=10 region-simplify=normal sizes=1,2 top-down=true"
        );
    }

    #[test]
    fn parses_mlir_syntax() {
        let v = OptionValues::parse(
            CANON,
            " max-iterations=3 top-down=false region-simplify=aggressive disable-patterns=a,\"b c\" enable-patterns={x,y} label='p{q} r'",
        )
        .unwrap();
        assert_eq!(v.get_int("max-iterations"), 3);
        assert!(!v.get_bool("top-down"));
        assert_eq!(v.get_str("region-simplify"), "aggressive");
        assert_eq!(v.get_str_list("disable-patterns"), ["a", "b c"]);
        assert_eq!(v.get_str_list("enable-patterns"), ["x", "y"]);
        assert_eq!(v.get_str("label"), "p{q} r");
        let text = v.to_canonical_string();
        assert_eq!(
            text,
            "disable-patterns=a,\"b c\" enable-patterns=x,y label=\"p{q} r\" max-iterations=3 region-simplify=aggressive sizes=1,2 top-down=false"
        );
        assert_eq!(OptionValues::parse(CANON, &text).unwrap(), v, "canonical form parses back");
    }

    #[test]
    fn bare_bool_last_wins_lists_append_and_nested_brackets() {
        let v = OptionValues::parse(CANON, "top-down max-iterations=1 max-iterations=0x10 sizes=4 sizes=5,6").unwrap();
        assert!(v.get_bool("top-down"));
        assert_eq!(v.get_int("max-iterations"), 16);
        assert_eq!(v.get_int_list("sizes"), [4, 5, 6]);
        let v = OptionValues::parse(CANON, "label=func.func(cse,canonicalize{a=1 b=2})").unwrap();
        assert_eq!(v.get_str("label"), "func.func(cse,canonicalize{a=1 b=2})");
    }

    #[test]
    fn errors_use_llvm_wording() {
        let err = |t: &str| OptionValues::parse(CANON, t).unwrap_err();
        assert_eq!(err("max-iteration=3"), "<Pass-Options-Parser>: no such option max-iteration");
        assert_eq!(err("max-iterations=x"), "for the --max-iterations option: 'x' value invalid for long argument!");
        assert_eq!(err("max-iterations"), "for the --max-iterations option: requires a value!");
        assert_eq!(
            err("top-down=3"),
            "for the --top-down option: '3' is invalid value for boolean argument! Try 0 or 1"
        );
        assert_eq!(err("region-simplify=foo"), "for the --region-simplify option: Cannot find option named 'foo'!");
        assert_eq!(
            err("max-iterations=3,top-down=false"),
            "for the --max-iterations option: '3,top-down=false' value invalid for long argument!"
        );
        assert!(err("label=\"abc").contains("unterminated quote"));
    }
}
