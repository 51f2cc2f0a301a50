//! MLIR's textual pass pipeline grammar, parsed into an [`OpPassManager`] and printed back.
//!
//! ```text
//! pipeline         ::= op-anchor `(` element (`,` element)* `)`
//! element          ::= op-anchor `(` element (`,` element)* `)`      (a nested pipeline)
//!                    | (pass-name | pipeline-name) (`{` options `}`)?
//! op-anchor        ::= an op name (`builtin.module`, `func.func`) | `any`
//! ```
//! Whitespace around names and punctuation is ignored; an empty pipeline (`builtin.module()`)
//! is allowed. Parsing follows MLIR's two steps, so errors come in MLIR's order: first the
//! structure (parentheses, braces, commas) of the text inside the outer anchor, then the names
//! (registered pass or pipeline), then the options of each pass. Located errors are reported
//! like MLIR's: `MLIR Textual PassPipeline Parser:1:5: error: <message>`, then the text inside
//! the outer anchor and a caret under the offending column.

use super::manager::{Anchor, OpPassManager};
use super::options::OptionValues;
use super::registry::PassRegistry;
use std::fmt;

/// How deep pipelines may nest (bounded recursion).
pub const MAX_PIPELINE_NESTING: usize = 512;

/// An error from parsing a textual pipeline.
#[derive(Clone, Debug, PartialEq)]
pub enum PipelineError {
    /// A structural or naming error at a byte offset of `source` (the text inside the outer
    /// anchor, which is what MLIR shows).
    Located { source: String, offset: usize, message: String },
    /// An error without a position (missing anchor, bad options).
    Plain(String),
}

impl PipelineError {
    fn at(source: &str, offset: usize, message: impl Into<String>) -> Self {
        PipelineError::Located { source: source.to_string(), offset, message: message.into() }
    }
}

impl fmt::Display for PipelineError {
    /// MLIR's rendering: for a located error, the header, the source line and a caret line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineError::Plain(m) => f.write_str(m),
            PipelineError::Located { source, offset, message } => {
                let offset = (*offset).min(source.len());
                let line_start = source[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
                let line_no = source[..offset].matches('\n').count() + 1;
                let line_end = source[offset..].find('\n').map(|i| offset + i).unwrap_or(source.len());
                let col = source[line_start..offset].chars().count() + 1;
                writeln!(f, "MLIR Textual PassPipeline Parser:{line_no}:{col}: error: {message}")?;
                writeln!(f, "{}", &source[line_start..line_end])?;
                writeln!(f, "{}^", " ".repeat(col - 1))
            }
        }
    }
}

impl std::error::Error for PipelineError {}

/// One parsed element before name resolution.
#[derive(Debug)]
struct RawElement<'s> {
    name: &'s str,
    name_offset: usize,
    options: Option<&'s str>,
    nested: Option<Vec<RawElement<'s>>>,
}

/// The message MLIR gives when the text is not `anchor(...)`.
const NOT_WRAPPED: &str =
    "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'";

/// Parses a full pipeline `anchor(elements)` into a manager anchored on `anchor`.
pub fn parse_pass_pipeline(text: &str, registry: &PassRegistry) -> Result<OpPassManager, PipelineError> {
    let text = text.trim();
    let (anchor, inner) = match (text.find('('), text.ends_with(')')) {
        (Some(open), true) => (text[..open].trim(), &text[open + 1..text.len() - 1]),
        _ => return Err(PipelineError::Plain(NOT_WRAPPED.to_string())),
    };
    if anchor.is_empty() {
        return Err(PipelineError::Plain(NOT_WRAPPED.to_string()));
    }
    let mut pm = OpPassManager::new(anchor);
    add_pipeline_elements(&mut pm, inner, registry)?;
    Ok(pm)
}

/// Parses `elements` (the text inside an anchor, e.g. `func.func(cse),canonicalize`) and
/// appends them to `pm`. An empty or all-blank text adds nothing.
pub fn add_pipeline_elements(pm: &mut OpPassManager, text: &str, registry: &PassRegistry) -> Result<(), PipelineError> {
    if text.trim().is_empty() {
        return Ok(());
    }
    let mut parser = StructureParser { src: text, pos: 0, depth: 0 };
    let elements = parser.parse_list(None)?;
    resolve_elements(pm, &elements, text, registry)
}

struct StructureParser<'s> {
    src: &'s str,
    pos: usize,
    depth: usize,
}

impl<'s> StructureParser<'s> {
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    /// Parses `element (, element)*`. `open` is the offset just after the `(` of a nested
    /// list (None at top level).
    fn parse_list(&mut self, open: Option<usize>) -> Result<Vec<RawElement<'s>>, PipelineError> {
        let mut out = Vec::new();
        loop {
            out.push(self.parse_element()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') if open.is_some() => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b')') => {
                    return Err(PipelineError::at(
                        self.src,
                        self.pos,
                        "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
                    ));
                }
                None => match open {
                    Some(at) => {
                        return Err(PipelineError::at(
                            self.src,
                            at,
                            "encountered unbalanced parentheses while parsing pipeline",
                        ));
                    }
                    None => return Ok(out),
                },
                Some(_) => {
                    return Err(PipelineError::at(self.src, self.pos, "expected ',' after parsing pipeline"));
                }
            }
        }
    }

    fn parse_element(&mut self) -> Result<RawElement<'s>, PipelineError> {
        self.skip_ws();
        let name_offset = self.pos;
        while let Some(c) = self.peek() {
            if matches!(c, b',' | b'(' | b')' | b'{' | b'}') {
                break;
            }
            self.pos += 1;
        }
        let name = self.src[name_offset..self.pos].trim();
        self.skip_ws();
        let mut element = RawElement { name, name_offset, options: None, nested: None };
        match self.peek() {
            Some(b'{') => element.options = Some(self.parse_options_block()?),
            Some(b'(') => {
                self.pos += 1;
                self.depth += 1;
                if self.depth > MAX_PIPELINE_NESTING {
                    return Err(PipelineError::at(self.src, self.pos, "pipeline nesting is too deep"));
                }
                let open = self.pos;
                element.nested = Some(self.parse_list(Some(open))?);
                self.depth -= 1;
            }
            _ => {}
        }
        Ok(element)
    }

    /// `{ ... }` with balanced braces and quotes; returns the text between the braces.
    fn parse_options_block(&mut self) -> Result<&'s str, PipelineError> {
        let open = self.pos;
        let bytes = self.src.as_bytes();
        let mut depth = 0usize;
        let mut quote: Option<u8> = None;
        let mut i = open;
        while i < bytes.len() {
            let c = bytes[i];
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == b'"' || c == b'\'' => quote = Some(c),
                None if c == b'{' => depth += 1,
                None if c == b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = i + 1;
                        return Ok(&self.src[open + 1..i]);
                    }
                }
                None => {}
            }
            i += 1;
        }
        Err(PipelineError::at(self.src, open, "missing closing '}' while processing pass options"))
    }
}

/// Resolves names against the registry and builds the passes, appending them to `pm`.
fn resolve_elements(
    pm: &mut OpPassManager,
    elements: &[RawElement<'_>],
    source: &str,
    registry: &PassRegistry,
) -> Result<(), PipelineError> {
    // MLIR reports every unknown name before looking at options.
    check_names(elements, source, registry)?;
    for e in elements {
        add_element(pm, e, source, registry)?;
    }
    Ok(())
}

fn check_names(elements: &[RawElement<'_>], source: &str, registry: &PassRegistry) -> Result<(), PipelineError> {
    for e in elements {
        match &e.nested {
            Some(inner) if !e.name.is_empty() => check_names(inner, source, registry)?,
            _ if registry.pass(e.name).is_some() || registry.pipeline(e.name).is_some() => {}
            _ => {
                return Err(PipelineError::at(
                    source,
                    e.name_offset,
                    format!("'{}' does not refer to a registered pass or pass pipeline", e.name),
                ));
            }
        }
    }
    Ok(())
}

fn add_element(
    pm: &mut OpPassManager,
    e: &RawElement<'_>,
    source: &str,
    registry: &PassRegistry,
) -> Result<(), PipelineError> {
    let options_text = e.options.unwrap_or("");
    let failed = |msg: String| {
        // LLVM's option parser ends its "no such option" message with a newline of its own,
        // which shows as an empty line before the "failed to add" line.
        let sep = if msg.starts_with("<Pass-Options-Parser>") { "\n\n" } else { "\n" };
        PipelineError::Plain(format!("{msg}{sep}failed to add `{}` with options `{options_text}`", e.name))
    };
    if let Some(inner) = &e.nested {
        let nested = pm.nest(e.name);
        for element in inner {
            add_element(nested, element, source, registry).map_err(|err| match err {
                PipelineError::Plain(m) => {
                    PipelineError::Plain(format!("{m}\nfailed to add `{}` with options `` to inner pipeline", e.name))
                }
                located => located,
            })?;
        }
        return Ok(());
    }
    if let Some(info) = registry.pass(e.name) {
        if let (Some(restricted), Anchor::Op(anchor)) = (info.anchor, pm.anchor())
            && restricted != anchor
        {
            return Err(failed(format!(
                "Can't add pass '{}' restricted to '{restricted}' on a PassManager intended to run on '{anchor}', did you intend to nest?",
                info.display
            )));
        }
        let values = OptionValues::parse(info.options, options_text).map_err(&failed)?;
        let pass = (info.create)(&values).map_err(&failed)?;
        pm.add_pass_with_options(pass, values);
        return Ok(());
    }
    if let Some(info) = registry.pipeline(e.name) {
        let values = OptionValues::parse(info.options, options_text).map_err(&failed)?;
        return (info.build)(&values, registry, pm).map_err(failed);
    }
    Err(PipelineError::at(
        source,
        e.name_offset,
        format!("'{}' does not refer to a registered pass or pass pipeline", e.name),
    ))
}

/// Prints a manager in MLIR's canonical form: `anchor(elem,elem)`, passes with all options.
/// `top_separator` joins the top-level elements (`","` normally; MLIR's crash reproducer
/// uses `", "`).
pub fn print_pipeline(pm: &OpPassManager, top_separator: &str) -> String {
    let mut out = String::new();
    write_manager(pm, top_separator, &mut out);
    out
}

fn write_manager(pm: &OpPassManager, separator: &str, out: &mut String) {
    out.push_str(pm.anchor().name());
    out.push('(');
    for (i, element) in pm.elements().iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        match element {
            super::manager::PipelineElement::Nested(inner) => write_manager(inner, ",", out),
            super::manager::PipelineElement::Pass(entry) => {
                out.push_str(entry.pass.info().name);
                if !entry.options.is_empty() {
                    out.push('{');
                    out.push_str(&entry.options.to_canonical_string());
                    out.push('}');
                }
            }
        }
    }
    out.push(')');
}
