//! Printer aliases (`#map`, `#set`, `#loc`, `!tuple`), numbered as mlir-opt-19 numbers them.
//!
//! Which values get an alias (the builtin dialect's rules): affine maps (`map`), integer sets
//! (`set`), locations (`loc`), and tuple types of more than 16 elements (`tuple`). Dialect
//! attributes and types we keep as text never get one.
//!
//! How they are numbered: a dry run visits every type and attribute in the order the printer
//! would print them (`Printer::collect_op` in `collect.rs`); the first visit records an entry.
//! Entries are then stably sorted by (alias depth, types before attributes, alias name) and
//! numbered per name in that order (`#map`, `#map1`, ...). An entry's depth is 1 for a value with
//! an alias and no aliased children, and one more than its deepest child otherwise.
//!
//! Op locations are "deferrable": their definitions are printed after the op, unless they (or
//! a location containing them) are also used where a deferral is not allowed (block argument
//! locations, attribute values), in which case they are printed before the op.
//!
//! Layer: printer data, below `state.rs` (whose `Printer` holds an [`Aliases`]): this file is the
//! alias table only and does not name the `Printer`; the dry run that fills it and the printing
//! of the definitions are `Printer` methods in `collect.rs`.

use crate::attrs::Attr;
use crate::types::Type;

pub(super) const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Key {
    Type(Type),
    Attr(Attr),
}

pub(super) struct Entry {
    pub key: Key,
    /// The alias base name, when this value gets an alias.
    pub base: Option<&'static str>,
    pub depth: u32,
    pub deferrable: bool,
    pub children: Vec<u32>,
}

/// Alias entries of one print, and the final names.
#[derive(Default)]
pub(crate) struct Aliases {
    pub(super) entries: Vec<Entry>,
    /// Entry index per type / attribute number (`NONE` when not visited).
    pub(super) type_entry: Vec<u32>,
    pub(super) attr_entry: Vec<u32>,
    /// Final alias text (`#map1`) per entry, filled by `finalize`.
    names: Vec<Option<Box<str>>>,
    /// Entries with aliases in printing order.
    ordered: Vec<u32>,
    finalized: bool,
}

impl Aliases {
    pub fn type_alias(&self, t: Type) -> Option<&str> {
        if !self.finalized {
            return None;
        }
        let e = *self.type_entry.get(t.as_u32() as usize)?;
        if e == NONE {
            return None;
        }
        self.names[e as usize].as_deref()
    }

    pub fn attr_alias(&self, a: Attr) -> Option<&str> {
        if !self.finalized {
            return None;
        }
        let e = *self.attr_entry.get(a.as_u32() as usize)?;
        if e == NONE {
            return None;
        }
        self.names[e as usize].as_deref()
    }

    pub(super) fn mark_non_deferrable(&mut self, idx: u32) {
        if !self.entries[idx as usize].deferrable {
            return;
        }
        let mut stack = vec![idx];
        while let Some(i) = stack.pop() {
            let e = &mut self.entries[i as usize];
            if !e.deferrable {
                continue;
            }
            e.deferrable = false;
            stack.extend(e.children.iter().copied());
        }
    }

    /// Sorts the entries and assigns the final names.
    pub fn finalize(&mut self) {
        let mut order: Vec<u32> =
            (0..self.entries.len() as u32).filter(|&i| self.entries[i as usize].base.is_some()).collect();
        order.sort_by(|&a, &b| {
            let (ea, eb) = (&self.entries[a as usize], &self.entries[b as usize]);
            let is_type = |e: &Entry| matches!(e.key, Key::Type(_));
            ea.depth.cmp(&eb.depth).then_with(|| is_type(eb).cmp(&is_type(ea))).then_with(|| ea.base.cmp(&eb.base))
        });
        self.names = (0..self.entries.len()).map(|_| None).collect();
        let mut counts: Vec<(&'static str, u32)> = Vec::new();
        for &i in &order {
            let e = &self.entries[i as usize];
            let Some(base) = e.base else { continue };
            let n = match counts.iter_mut().find(|(b, _)| *b == base) {
                Some((_, n)) => {
                    *n += 1;
                    *n - 1
                }
                None => {
                    counts.push((base, 1));
                    0
                }
            };
            let sigil = if matches!(e.key, Key::Type(_)) { '!' } else { '#' };
            let mut name = format!("{sigil}{base}");
            if n > 0 {
                if base.ends_with(|c: char| c.is_ascii_digit()) {
                    name.push('_');
                }
                name.push_str(&n.to_string());
            }
            self.names[i as usize] = Some(name.into());
        }
        self.ordered = order;
        self.finalized = true;
    }

    /// The aliased values to define, in order, with whether each is deferred.
    pub(super) fn definitions(&self) -> impl Iterator<Item = (Key, &str, bool)> + '_ {
        self.ordered.iter().map(|&i| {
            let e = &self.entries[i as usize];
            (e.key, self.names[i as usize].as_deref().unwrap_or(""), e.deferrable)
        })
    }
}

pub(super) fn slot(v: &mut Vec<u32>, i: u32) -> &mut u32 {
    let i = i as usize;
    if v.len() <= i {
        v.resize(i + 1, NONE);
    }
    &mut v[i]
}
