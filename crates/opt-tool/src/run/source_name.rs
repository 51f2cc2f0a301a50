//! The SSA name a value has in the source text (`%y`), which the IR does not keep: read off
//! the line of the op that defines it, in front of the op's column (`%y = fusion.linear ...`,
//! `%q:2 = ...` for ops with several results, named `%q#1`). Anything else (names spread over
//! lines, an op that is not the first thing after its `=`) gives no name, never a wrong one.

use fuser_ir::Context;
use fuser_ir::attrs::Attr;
use fuser_ir::diag::{SourceMgr, file_line_col};

/// Whether `s` is an SSA name: `%` then identifier characters.
fn is_ssa_name(s: &str) -> bool {
    s.strip_prefix('%')
        .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || "_.$-".contains(c)))
}

/// The name of result `index` of an op with `results` results whose result list reads `list`
/// (the text in front of ` = `).
fn name_in_list(list: &str, index: u32, results: usize) -> Option<String> {
    let groups: Vec<&str> = list.split(',').map(str::trim).collect();
    match groups.as_slice() {
        [single] if results == 1 && is_ssa_name(single) => Some(single.to_string()),
        [group] => {
            let (name, count) = group.split_once(':')?;
            (is_ssa_name(name) && count.parse::<usize>().ok()? == results).then(|| format!("{name}#{index}"))
        }
        names if names.len() == results && names.iter().all(|n| is_ssa_name(n)) => {
            names.get(index as usize).map(|n| n.to_string())
        }
        _ => None,
    }
}

/// The source's name of result `index` of `results` of the op at `loc`.
pub fn source_value_name(
    ctx: &Context,
    sources: &SourceMgr,
    loc: Attr,
    (index, results): (u32, usize),
) -> Option<String> {
    let (file, line, col) = file_line_col(ctx, loc)?;
    let src = sources.find(&file)?;
    let local = line.checked_sub(src.first_line.saturating_sub(1)).filter(|&l| l > 0)?;
    let text = src.line_text(local)?;
    let before_op = text.get(..(col as usize).checked_sub(1)?)?.trim_end();
    let list = before_op.strip_suffix('=')?.trim();
    name_in_list(list, index, results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_result_list() {
        assert_eq!(name_in_list("%y", 0, 1).as_deref(), Some("%y"));
        assert_eq!(name_in_list("%q:2", 1, 2).as_deref(), Some("%q#1"));
        assert_eq!(name_in_list("%a, %b", 1, 2).as_deref(), Some("%b"));
        assert_eq!(name_in_list("%q:3", 1, 2), None, "a count that does not match gives no name");
        assert_eq!(name_in_list("x", 0, 1), None);
        assert_eq!(name_in_list("%y", 0, 2), None);
    }
}
